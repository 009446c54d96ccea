/**
 * Tells how far a streaming replica has caught up, as a moment in time: every transaction the
 * primary committed before `caughtUpTo` is visible on the replica. It samples the primary's WAL
 * position with the time taken just before asking (so every commit finished by then lies at or
 * below it) and compares the replica's replay position against those samples.
 */
export class ReplicaFreshness {
  /** Primary WAL positions, oldest first, from the newest one the replica has replayed on. */
  private samples: Array<{ at: number; lsn: bigint }> = [];
  /** Every commit before this moment is on the replica; undefined until the first comparison. */
  caughtUpTo?: number;
  /** The furthest WAL position the replica was seen to have replayed (replay never goes back). */
  private replayed?: bigint;

  /** Records the primary's position `lsn`, read by a statement sent at `at`. */
  recordPrimary(at: number, lsn: string): void {
    this.samples.push({ at, lsn: parseLsn(lsn) });
  }

  /** Records the replica's replay position, moving `caughtUpTo` to the newest sample it covers. */
  recordReplica(replayLsn: string | null): void {
    // null: the server is not (or no longer) a standby replaying WAL; nothing it shows is vouched for.
    if (replayLsn === null) return;
    const replayed = parseLsn(replayLsn);
    if (this.replayed === undefined || replayed > this.replayed) this.replayed = replayed;
    let newest = -1;
    this.samples.forEach((sample, index) => {
      if (sample.lsn <= replayed) newest = index;
    });
    if (newest < 0) return;
    this.caughtUpTo = Math.max(this.caughtUpTo ?? 0, this.samples[newest].at);
    this.samples = this.samples.slice(newest);
  }

  /** The replica refused or dropped a connection: nothing it shows is vouched for until it answers again. */
  forget(): void {
    this.caughtUpTo = undefined;
    this.replayed = undefined;
    this.samples = [];
  }

  /** Whether the replica is at most `maxLagMs` behind at `now`. */
  isFresh(now: number, maxLagMs: number): boolean {
    return this.caughtUpTo !== undefined && this.caughtUpTo >= now - maxLagMs;
  }

  /** Whether the replica already shows every commit up to WAL position `position`. */
  hasReplayed(position: bigint): boolean {
    return this.replayed !== undefined && this.replayed >= position;
  }
}

/** A WAL position as PostgreSQL prints it ("16/B374D848") as one number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}
