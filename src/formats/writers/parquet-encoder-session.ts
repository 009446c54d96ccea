import type { ExportColumn } from '../binary-columns';
import type { ParquetCompression } from './parquet-compression';
import { ParquetFileEncoder } from './parquet-file';

/** What a file's writer sends its encoder: the columns once complete (and the pages' codec), the COPY's chunks, its end. */
export type ToEncoder =
  | { kind: 'start'; columns: ExportColumn[]; compression: ParquetCompression }
  | { kind: 'chunk'; bytes: Uint8Array }
  | { kind: 'end' };

/**
 * What the encoder answers: parts of the file in order and how many COPY bytes they account for
 * (the writer's bound on bytes in flight), with the chunk it read given back for the next one
 * (`spent`); `done` with the footer; or why the file failed.
 */
export type FromEncoder =
  | { kind: 'parts'; parts: Uint8Array[]; read: number; spent?: Uint8Array; done: boolean }
  | { kind: 'failed'; message: string };

/** Sends an answer; `transfer` lists the buffers that may move instead of being copied. */
export type EncoderReply = (message: FromEncoder, transfer: ArrayBuffer[]) => void;

/**
 * An encoder that writes one file at a time, from `start` to `end`, then the next: the handler
 * of the writer's messages, the same on an encoder thread and on the writer's own. Chunks that
 * come before `start` wait (a numeric's digits may still be counted) and are read once it comes.
 * After a failure it answers nothing more; its owner ends it rather than reusing it.
 */
export function encoderSession(reply: EncoderReply): (message: ToEncoder) => void {
  let encoder: ParquetFileEncoder | undefined;
  let waiting: Uint8Array[] = [];
  let failed = false;

  function send(parts: Uint8Array[], read: number, done: boolean, spent?: Uint8Array): void {
    // Each part lies in a buffer of its own (see ParquetFileEncoder), as does a chunk the writer
    // sent: moved, not copied.
    const buffers = new Set(parts.map((part) => part.buffer as ArrayBuffer));
    if (spent) buffers.add(spent.buffer as ArrayBuffer);
    reply({ kind: 'parts', parts, read, spent, done }, [...buffers]);
  }

  function read(bytes: Uint8Array): void {
    // The encoder keeps no reference to a chunk once it has read it (a cut row is copied).
    const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    send(encoder!.push(chunk), bytes.length, false, bytes);
  }

  return (message) => {
    if (failed) return;
    try {
      if (message.kind === 'start') {
        encoder = new ParquetFileEncoder(message.columns, message.compression);
        const early = waiting;
        waiting = [];
        for (const bytes of early) read(bytes);
      } else if (message.kind === 'chunk') {
        if (encoder) read(message.bytes);
        else waiting.push(message.bytes);
      } else {
        const parts = encoder!.finish();
        encoder = undefined;
        send(parts, 0, true);
      }
    } catch (error) {
      failed = true;
      reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }, []);
    }
  };
}
