import { randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A copy of an upload's bytes in a temporary file, so the file can be read a second time when
 * the first pass guessed a column type wrong. The file is unlinked as soon as it is open: only
 * this handle reaches it, and the kernel frees it even if the process is killed mid-upload.
 *
 * Writes run one at a time behind the reader (`append` waits for the previous write only), so
 * keeping the copy costs the upload almost no time. Should the disk fill up, the spool stops
 * writing and reports itself unusable instead of failing the upload that may not need it.
 */
export class UploadSpool {
  private size = 0;
  private writing: Promise<void> = Promise.resolve();
  private failed: boolean;

  private constructor(private readonly handle: FileHandle | undefined) {
    this.failed = !handle;
  }

  /** Never throws: without a usable temporary directory the spool is simply not usable. */
  static async open(directory = tmpdir()): Promise<UploadSpool> {
    const path = join(directory, `dataset-upload-${randomUUID()}`);
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, 'wx+', 0o600);
      await unlink(path);
      return new UploadSpool(handle);
    } catch {
      await handle?.close().catch(() => undefined);
      return new UploadSpool(undefined);
    }
  }

  /** Whether every byte appended so far can be read back (false once a write failed). */
  async complete(): Promise<boolean> {
    await this.writing;
    return !this.failed;
  }

  async append(chunk: Buffer): Promise<void> {
    await this.writing;
    if (this.failed || !this.handle || chunk.length === 0) return;
    const position = this.size;
    this.size += chunk.length;
    this.writing = this.handle.write(chunk, 0, chunk.length, position).then(
      ({ bytesWritten }) => {
        if (bytesWritten !== chunk.length) this.failed = true;
      },
      () => {
        this.failed = true;
      },
    );
  }

  /** Every byte appended so far, from the start; waits for the last write first. */
  async *read(): AsyncGenerator<Buffer> {
    await this.writing;
    if (this.failed || !this.handle) throw new Error('The upload copy is incomplete');
    for (let position = 0; position < this.size;) {
      const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, this.size - position));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error('The upload copy ended early');
      position += bytesRead;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
  }

  async close(): Promise<void> {
    await this.writing;
    await this.handle?.close().catch(() => undefined);
  }
}

/**
 * The upload's data bytes in arrival order, each one put in the spool before it is handed out.
 * Reads are serialised, so a drain that starts while a cancelled pass still awaits its chunk
 * keeps the spool in file order. The end and a failure of the source are final: once a read has
 * failed (the client left, the size limit was hit) every later read fails the same way, even if
 * the cancelled pass that saw the failure first dropped it.
 */
export class SpooledReader {
  private queue: Promise<unknown> = Promise.resolve();
  private pendingFirst: Buffer | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;

  constructor(
    first: Buffer,
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly spool: UploadSpool,
  ) {
    this.pendingFirst = first.length > 0 ? first : undefined;
  }

  /** The next chunk, or undefined at the end of the upload. */
  next(): Promise<Buffer | undefined> {
    const read = this.queue.then(() => this.readOne());
    this.queue = read.catch(() => undefined);
    return read;
  }

  /** The chunks still to come, one `next` at a time. */
  async *remaining(): AsyncGenerator<Buffer> {
    for (let chunk = await this.next(); chunk; chunk = await this.next()) yield chunk;
  }

  /** Reads the rest of the upload into the spool. */
  async drain(): Promise<void> {
    while ((await this.next()) !== undefined);
  }

  private async readOne(): Promise<Buffer | undefined> {
    if (this.failure) throw this.failure.error;
    if (this.ended) return undefined;
    let chunk = this.pendingFirst;
    this.pendingFirst = undefined;
    if (!chunk) {
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (error) {
        this.failure = { error };
        throw error;
      }
      if (next.done) {
        this.ended = true;
        return undefined;
      }
      chunk = next.value;
    }
    await this.spool.append(chunk);
    return chunk;
  }
}
