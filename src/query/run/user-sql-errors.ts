import { ConflictException } from '@nestjs/common';

/**
 * PostgreSQL errors that a user's statement causes by what it asks for (too much memory, too
 * much temporary disk, too deep, too wide), and that the server reports in the classes it also
 * uses for its own trouble (53 insufficient resources, XX internal). They are the user's to fix,
 * so they answer as a refused query in plain words: never as a server failure with a stack in the
 * log, never as "Database unavailable".
 */
export const NEEDED_MORE_MEMORY =
  'The query needed more memory than allowed: make it work on fewer rows or build smaller values';
export const NEEDED_MORE_DISK =
  'The query needed more temporary disk space than allowed: make it sort or group fewer rows';
export const NESTED_TOO_DEEPLY = 'The query is nested too deeply to run: write it with fewer levels';

/**
 * pg's own words when a statement outlives its connection's answer limit: PostgreSQL's statement
 * limit did not stop it in time (a backend busy building one huge value notices it late), or
 * PostgreSQL waited to write to us.
 */
export const PG_ANSWER_TIMEOUT = 'Query read timeout';

/** How PostgreSQL ends a session on pg_terminate_backend, and on a fast shutdown alike. */
const SESSION_ENDED = '57P01';

/**
 * Whether the query's session was ended by another one (admin_shutdown). With the server still
 * answering, that is an owner's replace, refresh or delete taking the table it read (see takeTable).
 */
export function sessionEnded(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  // Ended between two statements of the query (its role, its description, the statement itself),
  // the session's 57P01 came while the client waited for nothing: pg reports it on the next one.
  return code === SESSION_ENDED || (!code && AFTER_SESSION_ENDED.test(message ?? ''));
}

/** pg's words for a statement sent on a connection that ended before it. */
const AFTER_SESSION_ENDED = /^Client has encountered a connection error and is not queryable$/;

/**
 * The query read a table its owner replaced or deleted meanwhile, or one the reader's access to
 * ended (they left the organisation holding it): the reader's to run again.
 */
export class TableTakenUnderQuery extends ConflictException {
  constructor() {
    const message =
      'This dataset was deleted or replaced while your query ran, or your access to it ended: run the query again to read it as it is now';
    super({ error: message, message, statusCode: 409 });
  }
}

/** Whether the statement was stopped by the time limit, on the server's side or on ours. */
export function ranPastItsLimit(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '57014' || message === PG_ANSWER_TIMEOUT;
}

/**
 * Whether checking or running the statement went past a stack: this process's while parsing or
 * walking it (which the parser reports in its own words), or the database server's (54001).
 */
export function nestedTooDeeply(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '54001' || /Maximum call stack size exceeded/.test(message ?? '');
}

/** The plain message for a resource error the statement caused; undefined for any other error. */
export function userResourceFailure(error: { code?: string; message?: string }): string | undefined {
  if (nestedTooDeeply(error)) return NESTED_TOO_DEEPLY;
  switch (error.code) {
    // out_of_memory: the backend's allocation failed, or the shared lock table is full.
    case '53200':
      return NEEDED_MORE_MEMORY;
    // disk_full while writing temporary files, configuration_limit_exceeded (temp_file_limit).
    case '53100':
    case '53400':
      return NEEDED_MORE_DISK;
    // program_limit_exceeded: an array past PostgreSQL's 1 GB limit is reported so from
    // PostgreSQL 18 on (earlier as an allocation failure, below), a text built past it (concat)
    // as "out of memory" (18: "string buffer exceeds maximum allowed length"); other limits (our
    // value cap too) keep their words.
    case '54000':
      return /^out of memory$|(array size|string buffer) exceeds (the )?maximum allowed/.test(
        error.message ?? '',
      )
        ? NEEDED_MORE_MEMORY
        : undefined;
    // Internal errors are the server's, except a single value past PostgreSQL's 1 GB allocation limit.
    case 'XX000':
      return /invalid memory alloc request size/.test(error.message ?? '') ? NEEDED_MORE_MEMORY : undefined;
    default:
      return undefined;
  }
}
