import {
  PG_ANSWER_TIMEOUT,
  ranPastItsLimit,
  NEEDED_MORE_DISK,
  NEEDED_MORE_MEMORY,
  NESTED_TOO_DEEPLY,
  nestedTooDeeply,
  sessionEnded,
  TableTakenUnderQuery,
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
    // A StringInfo past 1 GB ("Cannot enlarge string buffer …" in the detail).
    expect(userResourceFailure({ code: '54000', message: 'out of memory' })).toBe(NEEDED_MORE_MEMORY);
    expect(
      userResourceFailure({
        code: '54000',
        message: 'string buffer exceeds maximum allowed length (1073741823 bytes)',
      }),
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

describe('a statement stopped by its time limit', () => {
  it('is told by PostgreSQL (57014) or by the connection’s own answer limit alike', () => {
    expect(ranPastItsLimit({ code: '57014', message: 'canceling statement due to statement timeout' })).toBe(
      true,
    );
    // A backend building one huge value may notice the statement limit late: pg's answer limit then
    // ends the wait first, and that is the user's time limit too, not the database being down.
    expect(ranPastItsLimit(new Error(PG_ANSWER_TIMEOUT))).toBe(true);
    expect(ranPastItsLimit(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(ranPastItsLimit({ code: '57P01' })).toBe(false);
  });
});

describe('sessionEnded', () => {
  it('is the error of a session another one ended, and nothing else', () => {
    expect(
      sessionEnded({ code: '57P01', message: 'terminating connection due to administrator command' }),
    ).toBe(true);
    expect(sessionEnded({ code: '57014', message: 'canceling statement due to user request' })).toBe(false);
    expect(sessionEnded(new Error('Connection terminated unexpectedly'))).toBe(false);
    // Ended between two of the query's statements: pg tells on the next one, without a code.
    expect(sessionEnded(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      true,
    );
    expect(sessionEnded(undefined)).toBe(false);
  });

  it('is answered as a conflict of the reader’s, in plain words', () => {
    const taken = new TableTakenUnderQuery();
    expect(taken.getStatus()).toBe(409);
    expect(taken.message).toMatch(/^This dataset was deleted or replaced while your query ran/);
  });
});
