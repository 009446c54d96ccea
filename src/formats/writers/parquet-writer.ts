import { Transform, TransformCallback } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { ExportColumn } from '../binary-columns';
import { codecReady, DEFAULT_PARQUET_COMPRESSION, ParquetCompression } from './parquet-compression';
import { EncoderRole, encoderSession, FromEncoder, ToEncoder } from './parquet-encoder-session';
import { endEncoderThread, returnEncoderThread, takeEncoderThreads } from './parquet-encoder-threads';
import { groupBuffers, PARQUET_MAGIC } from './parquet-file';

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
 * Filled row groups sent to the writing thread and not yet written: the filling thread gets no
 * more of the COPY beyond these, so a slow writer holds a few groups (about 10 MB each for the
 * bench's rows), not the table.
 */
const GROUPS_IN_FLIGHT = 2;

/**
 * Turns a binary COPY of `columns` into one Parquet file, streamed row group by row group (see
 * ParquetFileEncoder). The encoding runs on encoder threads when they are free, so this thread
 * only relays bytes: with two, one fills row groups from the COPY while the other encodes and
 * compresses the one before; with one, that thread does both; with none, this thread does.
 * `ready` settles once the columns are complete (a numeric's digits may be learnt while the COPY
 * already runs); its failure fails the file.
 */
export function parquetEncoder(
  columns: ExportColumn[],
  ready: Promise<void> = Promise.resolve(),
  compression: ParquetCompression = DEFAULT_PARQUET_COMPRESSION,
): Transform {
  return new ParquetEncoder(columns, ready, compression);
}

class ParquetEncoder extends Transform {
  /** The file's encoder threads while it has them: the one the COPY goes to, and the writing one. */
  private reader?: Worker;
  private writer?: Worker;
  private batch?: ChunkBatch;
  private readonly send: (message: ToEncoder) => void;
  /** Whether the encoder has the columns; the end is sent only after them. */
  private started = false;
  private ending = false;
  private inFlight = 0;
  private groupsInFlight = 0;
  /** The COPY's next chunk, held back while too many bytes are in flight. */
  private heldWrite?: TransformCallback;
  /** The end of the file, held until the encoder has sent the footer. */
  private heldEnd?: TransformCallback;
  private failed = false;

  constructor(columns: ExportColumn[], ready: Promise<void>, compression: ParquetCompression) {
    super({ readableHighWaterMark: UNREAD_BYTES });
    this.push(PARQUET_MAGIC);
    const [reader, writer] = takeEncoderThreads();
    let roles: { reader: EncoderRole; writer?: EncoderRole } = { reader: 'whole' };
    if (reader) {
      this.reader = this.listen(reader, writer ? this.filled : this.written);
      const batch = new ChunkBatch((bytes) => reader.postMessage({ kind: 'chunk', bytes }, [bytes.buffer]));
      this.batch = batch;
      this.send = (message) => {
        if (message.kind === 'chunk') return batch.add(message.bytes);
        if (message.kind === 'end') batch.flush();
        reader.postMessage(message);
      };
    } else {
      this.send = encoderSession((message) => this.written(message));
      // Encoded on this thread: the codec must be loaded here before the first page.
      ready = Promise.all([ready, codecReady(compression)]).then(() => undefined);
    }
    if (writer) {
      this.writer = this.listen(writer, this.written);
      roles = { reader: 'fill', writer: 'write' };
    }
    ready.then(() => {
      if (this.failed || this.destroyed) return;
      this.started = true;
      this.writer?.postMessage({ kind: 'start', columns, compression, role: roles.writer });
      this.send({ kind: 'start', columns, compression, role: roles.reader });
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
    this.dropThreads(false);
    callback(error);
  }

  private listen(thread: Worker, answered: (message: FromEncoder) => void): Worker {
    thread.on('message', answered);
    thread.on('error', this.fail);
    thread.on('exit', this.threadExited);
    return thread;
  }

  /**
   * Lets the COPY's next chunk come once the encoder has read enough of the ones in flight, and
   * the writing thread has few enough groups to write.
   */
  private releaseWrite(): void {
    const bound = this.started ? BYTES_IN_FLIGHT : EARLY_COPY_BYTES;
    if (!this.heldWrite || this.inFlight >= bound || this.groupsInFlight >= GROUPS_IN_FLIGHT) return;
    const callback = this.heldWrite;
    this.heldWrite = undefined;
    callback();
  }

  /** The filling thread's answer: its groups go on to the writing thread, in order. */
  private readonly filled = (message: FromEncoder): void => {
    if (this.failed || this.destroyed) return;
    if (message.kind === 'failed') return this.fail(new Error(message.message));
    if (message.kind !== 'groups') return this.fail(new Error('The Parquet encoder answered out of turn'));
    const writer = this.writer!;
    for (const group of message.groups) {
      this.groupsInFlight++;
      writer.postMessage({ kind: 'group', group } satisfies ToEncoder, groupBuffers(group));
    }
    if (message.spent) this.batch?.reuse(message.spent);
    this.inFlight -= message.read;
    if (!message.done) return this.releaseWrite();
    // Every group is filled: the filling thread is free for the next file, the writer ends this one.
    this.release('reader', true);
    writer.postMessage({ kind: 'end' } satisfies ToEncoder);
  };

  /** The file's parts, from the thread that writes them (or from this one's own encoder). */
  private readonly written = (message: FromEncoder): void => {
    if (this.failed || this.destroyed) return;
    if (message.kind === 'failed') return this.fail(new Error(message.message));
    if (message.kind !== 'parts') return this.fail(new Error('The Parquet encoder answered out of turn'));
    for (const part of message.parts) this.push(Buffer.from(part.buffer, part.byteOffset, part.length));
    if (message.spent) this.batch?.reuse(message.spent);
    this.inFlight -= message.read;
    if (this.writer && !message.done) this.groupsInFlight--;
    // A written group's buffers go back to the filling thread while it has groups to fill.
    if (message.free && message.free.length > 0 && this.reader && this.writer)
      this.reader.postMessage({ kind: 'free', buffers: message.free } satisfies ToEncoder, message.free);
    if (!message.done) return this.releaseWrite();
    this.dropThreads(true);
    this.heldEnd!();
  };

  private readonly threadExited = (): void => this.fail(new Error('The Parquet encoder stopped'));

  /** Fails the file at once, whatever it was waiting for. */
  private readonly fail = (error: unknown): void => {
    if (this.failed) return;
    this.failed = true;
    this.destroy(error instanceof Error ? error : new Error(String(error)));
  };

  /** Gives the threads back for the next file when this one ended cleanly, else ends them. */
  private dropThreads(clean: boolean): void {
    this.release('reader', clean);
    this.release('writer', clean);
  }

  private release(which: 'reader' | 'writer', clean: boolean): void {
    const thread = this[which];
    if (!thread) return;
    this[which] = undefined;
    thread.removeAllListeners('message');
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
