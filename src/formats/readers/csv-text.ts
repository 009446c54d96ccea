/** A value as a field of canonical CSV: quoted when it holds a comma, quote or line break, or is empty text. */
export function csvField(value: string | null): string {
  if (value === null) return '';
  if (value === '' || /[",\r\n]/.test(value)) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/** A date and time as Excel and Parquet keep them (a wall clock, in UTC fields): ISO, the date alone at midnight. */
export function isoWallClock(date: Date): string {
  const iso = date.toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.slice(0, 19).replace('T', ' ') + (iso.slice(19, 23) === '.000' ? '' : iso.slice(19, 23));
}
