import { hasRunningRun, runFinished, runStatusLabel } from './runs';

describe('run tracking', () => {
  it('sees a run in progress', () => {
    expect(
      hasRunningRun([
        { id: '1', status: 'succeeded' },
        { id: '2', status: 'running' },
      ]),
    ).toBe(true);
    expect(hasRunningRun([{ id: '1', status: 'failed' }])).toBe(false);
    expect(hasRunningRun(undefined)).toBe(false);
  });

  it('notices when a run that was running has finished', () => {
    const before = [{ id: 'r1', status: 'running' as const }];
    expect(runFinished(before, [{ id: 'r1', status: 'succeeded' }])).toBe(true);
    expect(runFinished(before, [{ id: 'r1', status: 'running' }])).toBe(false);
    expect(runFinished(undefined, [{ id: 'r1', status: 'failed' }])).toBe(false);
  });

  it('labels statuses for people', () => {
    expect(runStatusLabel('succeeded')).toBe('Succeeded');
  });
});
