import { QueryRefusal } from './query-refusal';

/** The widest field `format()` may pad to: far beyond any report, far below a memory-sized value. */
export const MAX_FORMAT_WIDTH = 10_000;

/**
 * `format('%900000000s', 'x')` builds a 900 MB value from a 19-byte query, out of reach of the
 * guards on repeat/lpad/rpad. The format text must therefore be a constant whose field widths are
 * written out and at most MAX_FORMAT_WIDTH; a width taken from an argument (`%*s`) is refused.
 */
export function checkFormatCall(args: unknown, location: number | undefined): void {
  const first = Array.isArray(args)
    ? (args[0] as { A_Const?: { sval?: { sval?: string } } } | undefined)
    : undefined;
  const text = first?.A_Const?.sval?.sval;
  const refuse = () => {
    throw new QueryRefusal(
      `format() needs a constant format text with field widths of at most ${MAX_FORMAT_WIDTH}`,
      location,
    );
  };
  if (typeof text !== 'string') refuse();
  // %[argument$][flags][width]type, as PostgreSQL reads it; %% is a plain percent sign.
  for (const match of (text as string).matchAll(/%(%|(?:\d+\$)?-?(\*(?:\d+\$)?|\d*)[a-zA-Z]?)/g)) {
    if (match[1] === '%') continue;
    const width = match[2] ?? '';
    if (width.startsWith('*') || (width !== '' && Number(width) > MAX_FORMAT_WIDTH)) refuse();
  }
}
