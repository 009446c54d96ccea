/**
 * What a named token may do: `stream` reads stream links and the OData feed, `query` runs SQL
 * over the owner's tables. The personal API key may do both.
 */
export const TOKEN_SCOPES = ['stream', 'query'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Named tokens start with this, so a leaked one is recognisable (and secret scanners can match it). */
export const NAMED_TOKEN_PREFIX = 'dmt_';
