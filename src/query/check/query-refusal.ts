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
export function missingRelation(name: string, position?: number): QueryRefusal {
  return new QueryRefusal(`relation "${name}" does not exist`, position);
}
