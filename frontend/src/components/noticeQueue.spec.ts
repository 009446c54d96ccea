import { enqueueNotice, QueuedNotice, shownIsSuperseded } from './noticeQueue';

const notice = (key: number, text: string, severity: QueuedNotice['severity']): QueuedNotice => ({
  key,
  text,
  severity,
});

describe('the notice queue', () => {
  it('closes an error on screen at once when a success follows it', () => {
    const failed = notice(1, 'Invalid email or password', 'error');
    const queue = enqueueNotice([failed], notice(2, 'Login successful', 'success'));
    expect(queue.map((queued) => queued.text)).toEqual(['Invalid email or password', 'Login successful']);
    expect(shownIsSuperseded(queue)).toBe(true);
  });

  it('drops waiting errors and warnings a success makes untrue, and keeps other news', () => {
    const shown = notice(1, 'Connector refreshed with 3 rows.', 'success');
    const failed = notice(2, 'Upload failed', 'error');
    const hint = notice(3, 'Add title & CSV file.', 'warning');
    const info = notice(4, 'Query cancelled.', 'info');
    const uploaded = notice(5, 'Connector uploaded.', 'success');
    const queue = enqueueNotice([shown, failed, hint, info], uploaded);
    expect(queue).toEqual([shown, info, uploaded]);
    expect(shownIsSuperseded(queue)).toBe(false);
  });

  it('queues errors and other notices behind what is shown, and lets an error stand its time', () => {
    const shown = notice(1, 'Access granted!', 'success');
    const failed = notice(2, 'Failed to remove access.', 'error');
    expect(enqueueNotice([shown], failed)).toEqual([shown, failed]);
    expect(enqueueNotice([], failed)).toEqual([failed]);
    const twoErrors = enqueueNotice([failed], notice(3, 'Grant failed', 'error'));
    expect(shownIsSuperseded(twoErrors)).toBe(false);
  });
});
