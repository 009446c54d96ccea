/** Values of a connector's settings form, nested by group. */
export type Values = Record<string, unknown>;
