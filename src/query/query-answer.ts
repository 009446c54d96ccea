import { HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ParquetCompression } from '../formats/writers/parquet-compression';
import { parquetEncoder } from '../formats/writers/parquet-writer';
import { XlsxEncoder } from '../formats/writers/xlsx-writer';
import type { QueryFormat } from './dto/run-query.dto';
import { BinaryRowSizes } from './run/binary-row-sizes';
import { CsvLineSizes } from './run/csv-line-sizes';
import { csvValue, jsonRow, ndjsonRow, uniqueNames } from './run/result-encoding';
import type { QueryOutcome } from './history/query-history.service';
import { AnswerWriter } from './answer-writer';
import { PG_ANSWER_TIMEOUT } from './run/user-sql-errors';
import { CANCELLED, QueryFailed } from './query.service';
import type { StartedQuery } from './query.service';

/** Rows fetched from the database per round trip. */
const BATCH_ROWS = 1000;
/** Encoded text past which a batch is written before its next row is encoded. */
const FLUSH_CHARS = 1024 * 1024;

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

/** Described like PostgreSQL's own statement timeout, for an answer its deadline cut. */
const TIMED_OUT = Object.assign(new Error('The answer outlived the query time limit'), { code: '57014' });

/** The time limit as the user knows it, whichever side noticed it first. */
function timedOutAs(error: unknown): unknown {
  return (error as Error)?.message === PG_ANSWER_TIMEOUT ? TIMED_OUT : error;
}

const logger = new Logger('QueryAnswer');
/** What the service says of a failure that is not the user's query's (see QueryService.failureText). */
const UNWORDED_FAILURE = 'The query failed';

/**
 * Streams a started query to the client in its format, with back-pressure: memory holds one batch
 * whatever the result's size. A client that goes away cancels the query in the database, and so
 * does the answer's deadline (`answerBy`), whatever the client does. A failure before the first
 * bytes (a JSON or JSON Lines answer reads its first rows before them) is answered with its own
 * status, like a refusal. An error after the first bytes ends a JSON answer with an `error` field
 * and aborts any other one (its status is already sent, so it must not look complete); both are
 * logged.
 */
export async function writeQueryAnswer(
  started: StartedQuery,
  { format, compression }: { format: QueryFormat; compression?: ParquetCompression },
  request: Request,
  response: Response,
  describe: (error: unknown) => string,
): Promise<void> {
  const { query, limit, startedAt, answerBy, finish } = started;
  const { columns } = query;
  const names = uniqueNames(columns);
  let recorded = false;
  // Recorded before the answer ends, so a history read right after it shows this run; once.
  const record = async (outcome: QueryOutcome) => {
    if (recorded) return;
    recorded = true;
    await finish(outcome);
  };
  const writer = new AnswerWriter(response, answerBy, () => void query.close());
  const write = (text: string | Buffer) => writer.write(text);
  let count = 0;
  let cutLogged = false;
  const start = async () => {
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
  };
  try {
    let truncated = false;
    // Rows answers read their first batch before the head, so a failure there has a status of its own.
    let batch = query.output === 'rows' ? await query.read(Math.min(BATCH_ROWS, limit)) : undefined;
    await start();
    if (query.output === 'csv') {
      // COPY's own CSV goes out as it comes; the statement's limit already ends it.
      const sizes = new CsvLineSizes();
      for (let piece = await query.read(); piece && !writer.gone; piece = await query.read()) {
        sizes.check(piece);
        await write(piece);
      }
    }
    if (query.output === 'binary') {
      const encoder: Duplex =
        format === 'parquet'
          ? parquetEncoder(query.exportColumns, undefined, compression)
          : new XlsxEncoder(query.exportColumns, 'query');
      const sizes = new BinaryRowSizes();
      await pipeline(
        copyPieces(
          query.read,
          () => writer.gone,
          (piece) => sizes.check(piece),
        ),
        encoder,
        async (file: AsyncIterable<Buffer>) => {
          for await (const piece of file) {
            if (writer.gone) return;
            await write(piece);
          }
        },
      );
    }
    while (query.output === 'rows') {
      if (writer.gone) return;
      if (count === limit) {
        truncated = (await query.read(1)).length > 0;
        break;
      }
      const wanted = Math.min(BATCH_ROWS, limit - count);
      const rows = batch ?? (await query.read(wanted));
      batch = undefined;
      let text = '';
      for (const row of rows) {
        if (format === 'json') text += (count > 0 ? ',' : '') + jsonRow(columns, row);
        else text += ndjsonRow(columns, names, row);
        count += 1;
        // Wide rows go out one by one, so the thread never holds a batch of many megabytes at once.
        if (text.length >= FLUSH_CHARS) {
          await write(text);
          text = '';
        }
      }
      if (text) await write(text);
      // A read hands over fewer rows than asked once they are wide: only none is the end.
      if (rows.length === 0) break;
    }
    await query.close();
    if (writer.gone) return;
    // COPY's CSV and the typed files go out uncounted.
    await record({ rowCount: query.output === 'rows' ? count : null });
    if (format === 'json')
      await write(`],"row_count":${count},"truncated":${truncated},"elapsed_ms":${Date.now() - startedAt}}`);
    response.end();
  } catch (failure) {
    const error = timedOutAs(failure);
    await query.close();
    if (writer.gone) return;
    const message = describe(error);
    await record({ error: message });
    if (!response.headersSent) {
      // Nothing went out yet: the error filter answers it with its own status.
      if (error instanceof HttpException) throw error;
      if (message !== UNWORDED_FAILURE) throw new QueryFailed(message);
      throw error;
    }
    cutLogged = true;
    logFailure(format, message, error);
    if (format === 'json') {
      response.end(
        `],"row_count":${count},"truncated":true,"elapsed_ms":${Date.now() - startedAt},"error":${JSON.stringify(message)}}`,
      );
    } else {
      request.socket.destroy();
    }
  } finally {
    // The deadline may pass while the failure above is recorded: one line for one cut answer.
    if (writer.expired && !cutLogged) {
      logFailure(format, describe(TIMED_OUT));
      await record({ error: describe(TIMED_OUT) });
    }
    // The client left before the end.
    await record({ error: CANCELLED });
  }
}

/**
 * One line for an answer cut after its head went out: the client only sees the connection end.
 * A failure of the user's query (a 4xx of its own) is no fault of ours and carries no stack.
 */
function logFailure(format: QueryFormat, message: string, error?: unknown): void {
  const line = `A ${format} query answer was cut after it began: ${message}`;
  // The service words every failure that is the user's; what it cannot word is ours.
  if (message === UNWORDED_FAILURE && error instanceof Error) logger.error(line, error.stack);
  else logger.warn(line);
}

/** A COPY's pieces until it ends or the client is gone, each looked at by `check` first. */
async function* copyPieces(
  read: () => Promise<Buffer | undefined>,
  gone: () => boolean,
  check: (piece: Buffer) => void,
): AsyncGenerator<Buffer> {
  for (let piece = await read(); piece && !gone(); piece = await read()) {
    check(piece);
    yield piece;
  }
}
