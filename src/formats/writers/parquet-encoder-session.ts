import type { ExportColumn } from '../binary-columns';
import type { ParquetCompression } from './parquet-compression';
import { FilledGroup, groupBuffers, ParquetFileEncoder, ParquetFileWriter, ParquetGroupFiller } from './parquet-file';

/**
 * What an encoder does with a file: all of it (`whole`), or one of its two halves when a file has
 * two threads: `fill` reads the COPY into row groups of column values, `write` turns those groups
 * into pages, compresses them and ends the file with its footer.
 */
export type EncoderRole = 'whole' | 'fill' | 'write';

/**
 * What a file's writer sends its encoder: the columns once complete (with the pages' codec and
 * the encoder's role), the COPY's chunks (`whole`, `fill`) or filled groups (`write`), its end.
 */
export type ToEncoder =
  | { kind: 'start'; columns: ExportColumn[]; compression: ParquetCompression; role: EncoderRole }
  | { kind: 'chunk'; bytes: Uint8Array }
  | { kind: 'group'; group: FilledGroup }
  | { kind: 'free'; buffers: ArrayBuffer[] }
  | { kind: 'end' };

/**
 * What the encoder answers: parts of the file in order (`whole`, `write`) or filled groups
 * (`fill`), and how many COPY bytes they account for (the writer's bound on bytes in flight),
 * with the chunk it read given back for the next one (`spent`); `done` with the file's last
 * answer; or why the file failed. The writing thread gives back a written group's buffers
 * (`free`), for the filling thread to fill again.
 */
export type FromEncoder =
  | {
      kind: 'parts';
      parts: Uint8Array[];
      read: number;
      spent?: Uint8Array;
      free?: ArrayBuffer[];
      done: boolean;
    }
  | { kind: 'groups'; groups: FilledGroup[]; read: number; spent?: Uint8Array; done: boolean }
  | { kind: 'failed'; message: string };

/** Sends an answer; `transfer` lists the buffers that may move instead of being copied. */
export type EncoderReply = (message: FromEncoder, transfer: ArrayBuffer[]) => void;

/** One file's work in a role: what it makes of a COPY chunk, of a filled group, and at the end. */
interface RoleWork {
  chunk?(bytes: Buffer): FromEncoder;
  group?(group: FilledGroup): FromEncoder;
  free?(buffers: ArrayBuffer[]): void;
  end(): FromEncoder;
}

function roleWork(role: EncoderRole, columns: ExportColumn[], compression: ParquetCompression): RoleWork {
  if (role === 'fill') {
    const filler = new ParquetGroupFiller(columns);
    return {
      chunk: (bytes) => ({ kind: 'groups', groups: filler.push(bytes), read: bytes.length, done: false }),
      free: (buffers) => filler.reuse(buffers),
      end: () => ({ kind: 'groups', groups: filler.finish(), read: 0, done: true }),
    };
  }
  if (role === 'write') {
    const writer = new ParquetFileWriter(columns, compression);
    return {
      group: (group) => {
        const parts = writer.group(group);
        return { kind: 'parts', parts, read: 0, free: writer.reusable(group), done: false };
      },
      end: () => ({ kind: 'parts', parts: [writer.footer()], read: 0, done: true }),
    };
  }
  const encoder = new ParquetFileEncoder(columns, compression);
  return {
    chunk: (bytes) => ({ kind: 'parts', parts: encoder.push(bytes), read: bytes.length, done: false }),
    end: () => ({ kind: 'parts', parts: encoder.finish(), read: 0, done: true }),
  };
}

/** The buffers an answer may move: each part, group and spent chunk lies in buffers of its own. */
function transferable(message: FromEncoder): ArrayBuffer[] {
  if (message.kind === 'failed') return [];
  const buffers = new Set<ArrayBuffer>(
    message.kind === 'parts'
      ? message.parts.map((part) => part.buffer as ArrayBuffer)
      : message.groups.flatMap(groupBuffers),
  );
  if (message.spent) buffers.add(message.spent.buffer as ArrayBuffer);
  if (message.kind === 'parts') for (const buffer of message.free ?? []) buffers.add(buffer);
  return [...buffers];
}

/**
 * An encoder that works on one file at a time, from `start` to `end`, then the next: the handler
 * of the writer's messages, the same on an encoder thread and on the writer's own. Chunks or
 * groups that come before `start` wait (a numeric's digits may still be counted) and are read
 * once it comes. After a failure it answers nothing more; its owner ends it rather than reusing it.
 */
export function encoderSession(reply: EncoderReply): (message: ToEncoder) => void {
  let work: RoleWork | undefined;
  let waiting: ToEncoder[] = [];
  let failed = false;

  function send(message: FromEncoder): void {
    reply(message, transferable(message));
  }

  function handle(message: ToEncoder): void {
    if (message.kind === 'chunk') {
      const { bytes } = message;
      // The encoder keeps no reference to a chunk once it has read it (a cut row is copied).
      const answer = work!.chunk!(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
      if (answer.kind !== 'failed') answer.spent = bytes;
      send(answer);
    } else if (message.kind === 'group') send(work!.group!(message.group));
    else if (message.kind === 'free') work!.free?.(message.buffers);
    else if (message.kind === 'end') {
      const last = work!.end();
      work = undefined;
      send(last);
    }
  }

  return (message) => {
    if (failed) return;
    try {
      if (message.kind === 'start') {
        work = roleWork(message.role, message.columns, message.compression);
        const early = waiting;
        waiting = [];
        for (const each of early) handle(each);
      } else if (work) handle(message);
      else waiting.push(message);
    } catch (error) {
      failed = true;
      reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }, []);
    }
  };
}
