import type { Request, Response } from 'express';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parquetEncoder } from '../formats/writers/parquet-writer';
import { XlsxEncoder } from '../formats/writers/xlsx-writer';
import type { QueryFormat } from './dto/run-query.dto';
import { csvValue, jsonRow, ndjsonRow, uniqueNames } from './run/result-encoding';
import type { QueryOutcome } from './history/query-history.service';
import { CANCELLED } from './query.service';
import type { StartedQuery } from './query.service';

/** Rows fetched from the database per round trip. */
const BATCH_ROWS = 1000;

const CONTENT_TYPES: Record<QueryFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const FILE_EXTENSIONS: Record<Exclude<QueryFormat, 'json'>, string> = {
  csv: 'csv',
  ndjson: 'jsonl',
  parquet: 'parquet',
  xlsx: 'xlsx',
};

/**
 * Streams a started query to the client in its format, with back-pressure: memory holds one batch
 * whatever the result's size. A client that goes away cancels the query in the database. An error
 * after the first bytes ends a JSON answer with an `error` field and cuts any other one short (its
 * status is already sent).
 */
export async function writeQueryAnswer(
  started: StartedQuery,
  format: QueryFormat,
  request: Request,
  response: Response,
  describe: (error: unknown) => string,
): Promise<void> {
  const { query, limit, startedAt, finish } = started;
  const { columns } = query;
  const names = uniqueNames(columns);
  let gone = false;
  let recorded = false;
  // Recorded before the answer ends, so a history read right after it shows this run; once.
  const record = async (outcome: QueryOutcome) => {
    if (recorded) return;
    recorded = true;
    await finish(outcome);
  };
  const leave = () => {
    if (response.writableFinished) return;
    gone = true;
    void query.close();
  };
  response.on('close', leave);
  const write = async (text: string | Buffer) => {
    if (!response.write(text) && !gone) await drainedOrClosed(response);
  };
  let count = 0;
  try {
    response.status(200);
    response.setHeader('Content-Type', CONTENT_TYPES[format]);
    response.setHeader('Cache-Control', 'no-store');
    if (format !== 'json')
      response.setHeader('Content-Disposition', `attachment; filename="query.${FILE_EXTENSIONS[format]}"`);
    if (format === 'json')
      await write(
        `{"columns":${JSON.stringify(columns.map((column, index) => ({ name: names[index], type: column.type })))},"rows":[`,
      );
    if (format === 'csv') await write(`${names.map(csvValue).join(',')}\n`);
    let truncated = false;
    if (query.output === 'csv') {
      // COPY's own CSV goes out as it comes; the statement's limit already ends it.
      for (let piece = await query.read(); piece && !gone; piece = await query.read()) await write(piece);
    }
    if (query.output === 'binary') {
      const encoder: Duplex =
        format === 'parquet'
          ? parquetEncoder(query.exportColumns)
          : new XlsxEncoder(query.exportColumns, 'query');
      await pipeline(
        copyPieces(query.read, () => gone),
        encoder,
        async (file: AsyncIterable<Buffer>) => {
          for await (const piece of file) {
            if (gone) return;
            await write(piece);
          }
        },
      );
    }
    while (query.output === 'rows') {
      if (gone) return;
      if (count === limit) {
        truncated = (await query.read(1)).length > 0;
        break;
      }
      const wanted = Math.min(BATCH_ROWS, limit - count);
      const rows = await query.read(wanted);
      let text = '';
      for (const row of rows) {
        if (format === 'json') text += (count > 0 ? ',' : '') + jsonRow(columns, row);
        else text += ndjsonRow(columns, names, row);
        count += 1;
      }
      if (text) await write(text);
      if (rows.length < wanted) break;
    }
    await query.close();
    if (gone) return;
    // COPY's CSV and the typed files go out uncounted.
    await record({ rowCount: query.output === 'rows' ? count : null });
    if (format === 'json')
      await write(`],"row_count":${count},"truncated":${truncated},"elapsed_ms":${Date.now() - startedAt}}`);
    response.end();
  } catch (error) {
    await query.close();
    if (gone) return;
    await record({ error: describe(error) });
    if (format === 'json') {
      response.end(
        `],"row_count":${count},"truncated":true,"elapsed_ms":${Date.now() - startedAt},"error":${JSON.stringify(describe(error))}}`,
      );
    } else {
      request.socket.destroy();
    }
  } finally {
    response.off('close', leave);
    // The client left before the end.
    await record({ error: CANCELLED });
  }
}

/** A COPY's pieces until it ends or the client is gone. */
async function* copyPieces(
  read: () => Promise<Buffer | undefined>,
  gone: () => boolean,
): AsyncGenerator<Buffer> {
  for (let piece = await read(); piece && !gone(); piece = await read()) yield piece;
}

/**
 * Resolves at the response's next 'drain', or at its 'close' when the client went away, and
 * leaves no listener behind: one left per wait would pile up over a long answer.
 */
function drainedOrClosed(response: Response): Promise<void> {
  return new Promise((done) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      done();
    };
    response.on('drain', settle);
    response.on('close', settle);
  });
}
