import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The nice value of a user statement's server process when PostgreSQL runs on this machine (the
 * embedded database, or a server beside the app): the product's own requests (catalogue, pages,
 * logins) then come first on shared cores, and user SQL takes what is left. A server elsewhere
 * is untouched; QUERY_DATABASE_URL is the lever there.
 */
const USER_SQL_NICE = 10;

/**
 * Lowers the CPU priority of the backend `pid` if it is a PostgreSQL process of this machine
 * logged in as `role` (its title, `postgres: [<cluster name>: ]<role> <database> …`, says so: a
 * pid of another machine's server may be some other process here). Answers whether it did; never
 * throws.
 */
export function yieldCpuToProduct(pid: number | undefined, role: string | undefined): boolean {
  if (pid === undefined || !role) return false;
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    const words = title.split(' ');
    const loggedIn =
      words[0] === 'postgres:' && (words[1] === role || (words[1].endsWith(':') && words[2] === role));
    if (!loggedIn) return false;
    setPriority(pid, USER_SQL_NICE);
    return true;
  } catch {
    // Not Linux, not our process to change, or gone already: the statement runs as it is.
    return false;
  }
}
