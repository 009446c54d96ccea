import type { IncrementalSpec } from '../dsl/connector-spec.types';
import { foldCursor, keepsPreviousState, nextState, noCursorSeen, requireCursorSeen } from './incremental';

const spec: IncrementalSpec = { cursor_field: 'created', param: 'since', format: 'unix' };

describe('incremental state', () => {
  it('a capped run keeps the previous state when its records came newest first', () => {
    const seen = foldCursor(spec, [{ created: 30 }, { created: 20 }], noCursorSeen());
    expect(seen).toMatchObject({ greatest: 30, ascending: false, count: 2 });
    expect(nextState(spec, { cursor: 5 }, seen, true)).toEqual({ cursor: 5 });
    expect(nextState(spec, { cursor: 5 }, seen, false)).toEqual({ cursor: 30 });
  });

  it('a capped run saves where it stopped when its records came oldest first, across pages', () => {
    const first = foldCursor(spec, [{ created: 10 }, { created: 20 }], noCursorSeen());
    const seen = foldCursor(spec, [{ created: 20 }, { created: 25 }], first);
    expect(keepsPreviousState(seen, true)).toBe(false);
    expect(nextState(spec, null, seen, true)).toEqual({ cursor: 25 });
  });

  it('one record shows no order: a capped run keeps the previous state', () => {
    expect(keepsPreviousState(foldCursor(spec, [{ created: 10 }], noCursorSeen()), true)).toBe(true);
  });

  it('finds the cursor under the column name the table shows, and fails when no record has it', () => {
    const byColumn = { ...spec, cursor_field: 'fields_last_modified' };
    const seen = foldCursor(byColumn, [{ 'fields_Last Modified': 7 }], noCursorSeen());
    expect(seen.greatest).toBe(7);
    const missing = { ...spec, cursor_field: 'nope' };
    expect(() =>
      requireCursorSeen(missing, 1, foldCursor(missing, [{ created: 1 }], noCursorSeen())),
    ).toThrow("cursor field 'nope'");
  });

  it('compares RFC 2822 cursors as instants, not as text', () => {
    const rfc: IncrementalSpec = { cursor_field: 'at', param: 'since', cursor_format: 'rfc2822' };
    const seen = foldCursor(
      rfc,
      [{ at: 'Mon, 20 Jan 2025 09:00:00 +0000' }, { at: 'Wed, 15 Jan 2025 08:00:00 +0000' }],
      noCursorSeen(),
    );
    expect(seen.greatest).toBe('Mon, 20 Jan 2025 09:00:00 +0000');
    expect(seen.ascending).toBe(false);
  });
});
