/**
 * A query refused before it reaches the database: the message says what to change, and the
 * position (1-based, in characters, as PostgreSQL reports it) points at the place.
 */
export class QueryRefusal extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
  }
}

/** PostgreSQL's own wording, so a table the caller does not hold reads exactly like one that does not exist. */
export function missingRelation(name: string, position?: number): MissingRelation {
  return new MissingRelation(name, position);
}

/** A table name the caller does not hold (or that does not exist): the name is kept to look it up. */
export class MissingRelation extends QueryRefusal {
  constructor(
    readonly relation: string,
    position?: number,
  ) {
    super(`relation "${relation}" does not exist`, position);
  }
}
