import type { Socket } from 'node:net';

/**
 * How long a stream waits on a client that takes nothing (an object, so a test can shorten it).
 * A stream may last as long as LONG_WORK_LIMITS_MS.stream while its client reads, however slowly;
 * one whose client stopped reading is cut after this, not at that limit: meanwhile its COPY holds
 * a snapshot (vacuum cannot clean behind it) and a lock that an owner's replace or delete waits on.
 */
export const STALLED_CLIENT = { limitMs: 2 * 60_000 };

/** How often the socket is looked at, as a share of the limit. */
const LOOKS_PER_LIMIT = 8;

/**
 * Watches the socket an answer goes out on and destroys it once bytes have been waiting to go out
 * for `limitMs` without any leaving (the client's window stays shut). Progress is what the socket
 * handed on to the system: what it took in, less what still waits in its buffer. Answers a
 * function that stops watching, and whether it cut the socket.
 */
export function cutWhenStalled(
  socket: Socket | undefined | null,
  limitMs: number,
): { stop(): void; cut(): boolean } {
  let cut = false;
  if (!socket) return { stop: () => undefined, cut: () => cut };
  let sent = handedOn(socket);
  let waitingSince: number | undefined;
  const look = () => {
    const now = handedOn(socket);
    if (now !== sent || socket.writableLength === 0) {
      sent = now;
      waitingSince = undefined;
      return;
    }
    waitingSince ??= Date.now();
    if (Date.now() - waitingSince < limitMs) return;
    cut = true;
    clearInterval(timer);
    socket.destroy();
  };
  const timer = setInterval(look, Math.max(10, Math.floor(limitMs / LOOKS_PER_LIMIT)));
  timer.unref();
  return { stop: () => clearInterval(timer), cut: () => cut };
}

function handedOn(socket: Socket): number {
  return socket.bytesWritten - socket.writableLength;
}
