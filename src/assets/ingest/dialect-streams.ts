import iconv from 'iconv-lite';
import type { CsvEncoding } from '../../formats/readers/csv-dialect';
import type { CsvNormaliser } from '../../formats/readers/csv-normaliser';

/**
 * The upload as UTF-8: chunks of a chosen other encoding are transcoded on the way (its BOM
 * dropped); without a choice, a UTF-16 BOM at the start picks UTF-16, and anything else passes
 * through untouched (the UTF-8 fast path). `resolved.encoding` says which it was once the first
 * chunk is read.
 */
export async function* utf8Chunks(
  chunks: AsyncIterator<Buffer>,
  chosen: CsvEncoding | undefined,
  resolved: { encoding?: CsvEncoding },
): AsyncGenerator<Buffer> {
  const first = await chunks.next();
  if (first.done) return;
  const encoding = chosen ?? utf16ByBom(first.value) ?? 'utf-8';
  resolved.encoding = encoding;
  if (encoding === 'utf-8') {
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    return;
  }
  const decoder = iconv.getDecoder(encoding);
  yield Buffer.from(decoder.write(first.value), 'utf8');
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    yield Buffer.from(decoder.write(next.value), 'utf8');
  }
  const rest = decoder.end();
  if (rest) yield Buffer.from(rest, 'utf8');
}

function utf16ByBom(bytes: Buffer): CsvEncoding | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The data records in canonical form: `first` (read with the header), then the rest of the upload. */
export async function* normalisedChunks(
  first: Buffer,
  chunks: AsyncIterator<Buffer>,
  normaliser: CsvNormaliser,
): AsyncGenerator<Buffer> {
  if (first.length > 0) yield normaliser.push(first);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const canonical = normaliser.push(next.value);
    if (canonical.length > 0) yield canonical;
  }
  const rest = normaliser.end();
  if (rest.length > 0) yield rest;
}
