import { BadRequestException } from '@nestjs/common';

/**
 * Most bytes one row of a query's answer may take as PostgreSQL sends it. The API assembles a
 * row (or a typed file's record) in memory before it writes it, on the one thread every request
 * shares; past this a row is refused instead of held. 16 MB fits any value a person reads or a
 * spreadsheet cell holds (an Excel cell takes 32,767 characters).
 */
export const QUERY_MAX_ROW_BYTES = 16 * 1024 * 1024;

/**
 * Most bytes one stored value may take (an upload's cell, a connector record's field): the cap of
 * a row of the answer and of a value a query builds, so that every value stored can be read
 * back and worked on by the queries, streams and exports all tenants share.
 */
export const MAX_STORED_VALUE_BYTES = QUERY_MAX_ROW_BYTES;

/** The refusal of a stored value past MAX_STORED_VALUE_BYTES, after what names the value. */
export const VALUE_TOO_LARGE = `a value may be at most ${MAX_STORED_VALUE_BYTES / (1024 * 1024)} MB`;

/** A row past QUERY_MAX_ROW_BYTES: the user's query, so a 400 that names the cap. */
export class RowTooLarge extends BadRequestException {
  constructor() {
    const message = `A row of the answer is larger than ${QUERY_MAX_ROW_BYTES / (1024 * 1024)} MB, the most one row may take: select fewer or shorter values`;
    super({ error: message, message, statusCode: 400 });
  }
}
