/**
 * Every readable table (a dataset, a connector instance's table, each further stream's table) has
 * one readable name, e.g. `sales_2024`: its OData entity set, its stream link, its download file
 * and its name in user SQL. The database gives it when the row is inserted, from the title, and
 * keeps it when the title changes (migration ReadableTableNames1796000000000): lower-case letters,
 * digits and underscores, a letter first, at most 48 characters, never a word the SQL parser
 * reserves, unique across all three kinds. A name given since ReadableNamesOfTheirOwn1796100000022
 * ends with hex digits of the row's own id (`sales_2024_1f0c`), so it tells nothing of other
 * tenants' titles; older ones keep their plain form (a clash took `_2`, `_3`, …).
 */
export const READABLE_NAME_MAX_LENGTH = 48;

const READABLE_NAME_PATTERN = new RegExp(`^[a-z][a-z0-9_]{0,${READABLE_NAME_MAX_LENGTH - 1}}$`);

/** Whether `text` has the shape of a readable name (anything else names no table and is not looked up). */
export function isReadableName(text: unknown): text is string {
  return typeof text === 'string' && READABLE_NAME_PATTERN.test(text);
}
