import type { Response } from 'express';

/**
 * How long after its query's time limit an answer may still be on its way: rows PostgreSQL sent
 * just before the limit, and the end of the answer, still go out to a client that reads.
 */
export const ANSWER_GRACE_MS = 3_000;

/**
 * Writes one answer with back-pressure, and cuts it at a deadline whatever the client does. A
 * client that stops reading would otherwise keep the query's statement, transaction and locks for
 * ever: PostgreSQL does not apply the statement limit while it waits to write to us, and we wait
 * for the client. At the deadline the connection is destroyed (the client sees the answer cut,
 * never a complete-looking one), which runs `onClosed` like any client that went away.
 */
export class AnswerWriter {
  private closedEarly = false;
  private timedOut = false;
  private waiting: (() => void) | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly response: Response,
    deadline: number,
    private readonly onClosed: () => void,
  ) {
    // One listener of each for the whole answer, not one per wait: the compression middleware
    // hands 'drain' listeners to its zlib stream but not their removal, so those would pile up.
    response.on('drain', this.wake);
    response.on('close', this.closed);
    response.on('finish', this.stopClock);
    this.timer = setTimeout(this.expire, Math.max(0, deadline - Date.now()));
  }

  /** The client went away, or the deadline cut the answer: nothing more goes out. */
  get gone(): boolean {
    return this.closedEarly;
  }

  /** The deadline cut the answer. */
  get expired(): boolean {
    return this.timedOut;
  }

  /** Writes, then waits while the client is behind (until it catches up or the answer is cut). */
  async write(text: string | Buffer): Promise<void> {
    if (this.closedEarly) return;
    if (this.response.write(text)) return;
    await new Promise<void>((resume) => (this.waiting = resume));
  }

  private readonly wake = () => {
    const resume = this.waiting;
    this.waiting = undefined;
    resume?.();
  };

  private readonly closed = () => {
    this.stopClock();
    if (this.response.writableFinished) return;
    this.closedEarly = true;
    this.wake();
    this.onClosed();
  };

  private readonly stopClock = () => clearTimeout(this.timer);

  private readonly expire = () => {
    this.timedOut = true;
    this.response.destroy();
  };
}
