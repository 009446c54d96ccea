import { finishedRun, hasRunningRun, runStatusLabel } from './runs';

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
    expect(finishedRun(before, [{ id: 'r1', status: 'succeeded' }])?.id).toBe('r1');
    expect(finishedRun(before, [{ id: 'r1', status: 'running' }])).toBeUndefined();
    expect(finishedRun(undefined, [{ id: 'r1', status: 'failed' }])).toBeUndefined();
  });

  it('notices a quick run that started and finished between two polls, but not old runs', () => {
    const before = [{ id: 'old', status: 'succeeded' as const }];
    const after = [
      { id: 'new', status: 'failed' as const },
      { id: 'old', status: 'succeeded' as const },
    ];
    expect(finishedRun(before, after)?.id).toBe('new');
    expect(finishedRun(before, before)).toBeUndefined();
    expect(finishedRun([], [{ id: 'new', status: 'running' }])).toBeUndefined();
  });

  it('labels statuses for people', () => {
    expect(runStatusLabel('succeeded')).toBe('Succeeded');
  });
});
