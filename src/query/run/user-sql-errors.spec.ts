import {
  NEEDED_MORE_DISK,
  NEEDED_MORE_MEMORY,
  NESTED_TOO_DEEPLY,
  nestedTooDeeply,
  userResourceFailure,
} from './user-sql-errors';

describe('userResourceFailure', () => {
  it('answers what a statement asked too much of in plain words', () => {
    expect(userResourceFailure({ code: '53200', message: 'out of memory' })).toBe(NEEDED_MORE_MEMORY);
    expect(
      userResourceFailure({ code: 'XX000', message: 'invalid memory alloc request size 1073741824' }),
    ).toBe(NEEDED_MORE_MEMORY);
    expect(
      userResourceFailure({ code: '54000', message: 'array size exceeds the maximum allowed (1073741823)' }),
    ).toBe(NEEDED_MORE_MEMORY);
    expect(
      userResourceFailure({ code: '54000', message: 'target lists can have at most 1664 entries' }),
    ).toBe(undefined);
    expect(userResourceFailure({ code: '53100', message: 'could not write to file' })).toBe(NEEDED_MORE_DISK);
    expect(
      userResourceFailure({ code: '53400', message: 'temporary file size exceeds temp_file_limit' }),
    ).toBe(NEEDED_MORE_DISK);
    expect(userResourceFailure({ code: '54001', message: 'stack depth limit exceeded' })).toBe(
      NESTED_TOO_DEEPLY,
    );
  });

  it('leaves the server’s own trouble to the server', () => {
    expect(userResourceFailure({ code: 'XX000', message: 'could not open relation' })).toBeUndefined();
    expect(userResourceFailure({ code: '53300', message: 'too many connections' })).toBeUndefined();
    expect(userResourceFailure({ code: '57P01', message: 'terminating connection' })).toBeUndefined();
  });

  it('tells this process’s own stack running out', () => {
    expect(nestedTooDeeply(new RangeError('Maximum call stack size exceeded'))).toBe(true);
    expect(nestedTooDeeply(new Error('Maximum call stack size exceeded'))).toBe(true);
    expect(nestedTooDeeply(new Error('syntax error at or near "FROM"'))).toBe(false);
  });
});
