import { createReadStream } from 'node:fs';
import { Parse, type Entry } from 'unzipper';
import { ByteBudget, ExpansionLimit } from './expansion-limit';

/**
 * Unpacks every part of the .xlsx at `path` once, counting the bytes, and refuses the file as
 * soon as they pass the limit: before the workbook reader unpacks the same parts (to memory for
 * the shared strings, to temporary files for sheets stored ahead of them). Counting what
 * inflates, not the sizes the zip declares, as those can lie. The same zip parser as the
 * workbook reader's, so both see the same entries.
 */
export async function checkXlsxUnpackedSize(path: string, limit: ExpansionLimit): Promise<void> {
  const budget = new ByteBudget(limit.unpackedBytes, () => limit.unpackedTooLarge());
  const file = createReadStream(path);
  const entries = file.pipe(Parse({ forceStream: true }));
  try {
    for await (const entry of entries as AsyncIterable<Entry>) {
      for await (const chunk of entry as AsyncIterable<Buffer>) budget.spend(chunk.length);
    }
  } finally {
    file.destroy();
    entries.destroy();
  }
}
