import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const WORKER_FILE = join(__dirname, 'parquet-encoder.worker.js');
/** Groups sent ahead of the encoder: one waiting while it encodes another and the next is built. */
const GROUPS_AHEAD = 1;
/** Idle encoder threads kept for the next download (each keeps its WebAssembly memory). */
const MAX_IDLE = 2;

export interface EncoderSettings {
  rowsPerGroup: number;
  createdBy: string;
}

type WorkerMessage =
  | { type: 'taken' }
  | { type: 'bytes'; bytes: Uint8Array }
  | { type: 'done' }
  | { type: 'error'; message: string };

const idle = new Set<Worker>();

/** An idle thread, or a new one; one that dies while idle is not handed out again. */
function encoderWorker(): Worker {
  const [reused] = idle;
  if (reused) {
    idle.delete(reused);
    return reused;
  }
  const worker = new Worker(WORKER_FILE);
  worker.on('exit', () => idle.delete(worker));
  return worker;
}

/** Stops the idle threads (a process exits without it: they are unref'd); each leaves the idle ones as it exits. */
export async function stopIdleEncoders(): Promise<void> {
  await Promise.all([...idle].map((worker) => worker.terminate()));
}

/**
 * One download's Parquet encoding on a thread of its own (taken from the idle ones or started):
 * `send` hands it row groups as Arrow IPC, at most GROUPS_AHEAD ahead of the encoder; `output`
 * yields the file's bytes, each acknowledged when taken so the thread waits for a slow client.
 * A thread that finished cleanly goes back to the idle ones; any other is stopped.
 */
export class ParquetEncoderThread {
  private readonly worker: Worker;
  private credits = GROUPS_AHEAD;
  private readonly chunks: Uint8Array[] = [];
  private done = false;
  private failure: Error | undefined;
  /** The sender waiting for room and the reader waiting for bytes: both run at once. */
  private waiting: Array<() => void> = [];
  private readonly onMessage = (message: WorkerMessage) => this.receive(message);
  private readonly onError = (error: Error) => this.fail(error);
  private readonly onExit = (code: number) =>
    this.fail(new Error(`The Parquet encoder thread exited (${code})`));

  constructor(settings: EncoderSettings) {
    this.worker = encoderWorker();
    this.worker.ref();
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.worker.postMessage({ type: 'start', settings });
  }

  /** Sends one row group (its buffer moves to the thread), once the encoder has room for it. */
  async send(ipc: Uint8Array): Promise<void> {
    while (this.credits === 0 && !this.failure) await this.wait();
    if (this.failure) throw this.failure;
    this.credits--;
    const owned = ipc.byteOffset === 0 && ipc.byteLength === ipc.buffer.byteLength ? ipc : ipc.slice();
    this.worker.postMessage({ type: 'group', ipc: owned }, [owned.buffer as ArrayBuffer]);
  }

  end(): void {
    this.worker.postMessage({ type: 'end' });
  }

  /** Stops the encoding: whatever waits on it fails with `error`. */
  fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  async *output(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        this.worker.postMessage({ type: 'ack' });
      } else if (this.failure) throw this.failure;
      else if (this.done) return;
      else await this.wait();
    }
  }

  /**
   * Gives the thread back for another download if it ended cleanly, else stops it: a download cut
   * short stops its sender too.
   */
  release(): void {
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    const clean = this.done && !this.failure;
    if (!clean) this.fail(new Error('The Parquet download ended early'));
    if (clean && idle.size < MAX_IDLE) {
      // An idle thread does not keep the process alive.
      this.worker.unref();
      idle.add(this.worker);
    } else void this.worker.terminate();
  }

  private receive(message: WorkerMessage): void {
    switch (message.type) {
      case 'taken':
        this.credits++;
        break;
      case 'bytes':
        this.chunks.push(message.bytes);
        break;
      case 'done':
        this.done = true;
        break;
      case 'error':
        this.failure ??= new Error(message.message);
        break;
    }
    this.notify();
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private notify(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
