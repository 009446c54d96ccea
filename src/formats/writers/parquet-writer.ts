import { Transform, TransformCallback } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { ExportColumn } from '../binary-columns';
import { codecReady, DEFAULT_PARQUET_COMPRESSION, ParquetCompression } from './parquet-compression';
import { encoderSession, FromEncoder, ToEncoder } from './parquet-encoder-session';
import { endEncoderThread, returnEncoderThread, takeEncoderThread } from './parquet-encoder-threads';
import { PARQUET_MAGIC } from './parquet-file';

/**
 * COPY bytes sent to the encoder and not yet read by it: the COPY waits beyond this, so memory
 * stays bounded however fast PostgreSQL answers. While the columns' shapes are still being
 * learnt the encoder reads nothing, and the COPY goes on until the larger bound.
 */
const BYTES_IN_FLIGHT = 4 * 1024 * 1024;
const EARLY_COPY_BYTES = 16 * 1024 * 1024;

/**
 * COPY bytes sent to an encoder thread in one message: a message costs tens of microseconds on
 * each side, and a COPY comes in chunks of a few kilobytes.
 */
const BATCH_BYTES = 1024 * 1024;

/**
 * Finished row groups waiting to be read: the encoder goes on with the next group while the
 * client takes these, and the COPY waits once this much is unread.
 */
const UNREAD_BYTES = 4 * 1024 * 1024;

/**
 * Turns a binary COPY of `columns` into one Parquet file, streamed row group by row group (see
 * ParquetFileEncoder). The encoding runs on an encoder thread when one is free, so this thread
 * only relays bytes, and on this thread otherwise. `ready` settles once the columns are complete
 * (a numeric's digits may be learnt while the COPY already runs); its failure fails the file.
 */
export function parquetEncoder(
  columns: ExportColumn[],
  ready: Promise<void> = Promise.resolve(),
  compression: ParquetCompression = DEFAULT_PARQUET_COMPRESSION,
): Transform {
  return new ParquetEncoder(columns, ready, compression);
}

class ParquetEncoder extends Transform {
  /** The encoder's thread, while this file has one, and the batches its chunks go in. */
  private thread?: Worker;
  private batch?: ChunkBatch;
  private readonly send: (message: ToEncoder) => void;
  /** Whether the encoder has the columns; the end is sent only after them. */
  private started = false;
  private ending = false;
  private inFlight = 0;
  /** The COPY's next chunk, held back while too many bytes are in flight. */
  private heldWrite?: TransformCallback;
  /** The end of the file, held until the encoder has sent the footer. */
  private heldEnd?: TransformCallback;
  private failed = false;

  constructor(columns: ExportColumn[], ready: Promise<void>, compression: ParquetCompression) {
    super({ readableHighWaterMark: UNREAD_BYTES });
    this.push(PARQUET_MAGIC);
    const thread = takeEncoderThread();
    if (thread) {
      this.thread = thread;
      thread.on('message', this.answered);
      thread.on('error', this.fail);
      thread.on('exit', this.threadExited);
      const batch = new ChunkBatch((bytes) => thread.postMessage({ kind: 'chunk', bytes }, [bytes.buffer]));
      this.batch = batch;
      this.send = (message) => {
        if (message.kind === 'chunk') return batch.add(message.bytes);
        if (message.kind === 'end') batch.flush();
        thread.postMessage(message);
      };
    } else {
      this.send = encoderSession((message) => this.answered(message));
      // Encoded on this thread: the codec must be loaded here before the first page.
      ready = Promise.all([ready, codecReady(compression)]).then(() => undefined);
    }
    ready.then(() => {
      if (this.failed || this.destroyed) return;
      this.started = true;
      this.send({ kind: 'start', columns, compression });
      if (this.ending) this.send({ kind: 'end' });
      this.releaseWrite();
    }, this.fail);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.inFlight += chunk.length;
    this.heldWrite = callback;
    this.send({ kind: 'chunk', bytes: chunk });
    this.releaseWrite();
  }

  override _flush(callback: TransformCallback): void {
    this.heldEnd = callback;
    this.ending = true;
    if (this.started) this.send({ kind: 'end' });
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.dropThread(false);
    callback(error);
  }

  /** Lets the COPY's next chunk come once the encoder has read enough of the ones in flight. */
  private releaseWrite(): void {
    const bound = this.started ? BYTES_IN_FLIGHT : EARLY_COPY_BYTES;
    if (!this.heldWrite || this.inFlight >= bound) return;
    const callback = this.heldWrite;
    this.heldWrite = undefined;
    callback();
  }

  private readonly answered = (message: FromEncoder): void => {
    if (this.failed || this.destroyed) return;
    if (message.kind === 'failed') return this.fail(new Error(message.message));
    for (const part of message.parts) this.push(Buffer.from(part.buffer, part.byteOffset, part.length));
    if (message.spent) this.batch?.reuse(message.spent);
    this.inFlight -= message.read;
    if (!message.done) return this.releaseWrite();
    this.dropThread(true);
    this.heldEnd!();
  };

  private readonly threadExited = (): void => this.fail(new Error('The Parquet encoder stopped'));

  /** Fails the file at once, whatever it was waiting for. */
  private readonly fail = (error: unknown): void => {
    if (this.failed) return;
    this.failed = true;
    this.destroy(error instanceof Error ? error : new Error(String(error)));
  };

  /** Gives the thread back for the next file when this one ended cleanly, else ends it. */
  private dropThread(clean: boolean): void {
    const thread = this.thread;
    if (!thread) return;
    this.thread = undefined;
    thread.off('message', this.answered);
    thread.off('error', this.fail);
    thread.off('exit', this.threadExited);
    if (clean) returnEncoderThread(thread);
    else endEncoderThread(thread);
  }
}

/**
 * Gathers the COPY's chunks into batches of BATCH_BYTES, each a buffer of its own (a chunk may
 * share its buffer with others), which then moves to the thread without a copy. The thread gives
 * each batch back once read, and it is filled again: the batches in flight are all the buffers a
 * file needs on this side, rather than a new one per megabyte left for the collector.
 */
class ChunkBatch {
  private readonly spare: ArrayBuffer[] = [];
  private batch?: Uint8Array<ArrayBuffer>;
  private filled = 0;

  constructor(private readonly post: (bytes: Uint8Array<ArrayBuffer>) => void) {}

  add(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length;) {
      this.batch ??= new Uint8Array(this.spare.pop() ?? new ArrayBuffer(BATCH_BYTES));
      const taken = Math.min(chunk.length - at, BATCH_BYTES - this.filled);
      this.batch.set(chunk.subarray(at, at + taken), this.filled);
      this.filled += taken;
      at += taken;
      if (this.filled === BATCH_BYTES) this.flush();
    }
  }

  flush(): void {
    if (!this.batch || this.filled === 0) return;
    const bytes = this.batch.subarray(0, this.filled);
    this.batch = undefined;
    this.filled = 0;
    this.post(bytes);
  }

  /** A batch the thread has read, to fill again. */
  reuse(bytes: Uint8Array): void {
    if (bytes.buffer.byteLength === BATCH_BYTES) this.spare.push(bytes.buffer as ArrayBuffer);
  }
}
