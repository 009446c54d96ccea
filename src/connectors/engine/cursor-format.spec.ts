import { isReadablePattern, readCursorDate } from './cursor-format';

describe('cursor formats', () => {
  it.each([
    ['rfc2822', 'Tue, 14 Jan 2025 10:00:00 +0000', '2025-01-14T10:00:00.000Z'],
    ['rfc2822', 'Tue, 14 Jan 2025 12:00:00 +0200', '2025-01-14T10:00:00.000Z'],
    ['http', 'Tue, 14 Jan 2025 10:00:00 GMT', '2025-01-14T10:00:00.000Z'],
    ['unix', 1736848800, '2025-01-14T10:00:00.000Z'],
    ['unix_ms', '1736848800000', '2025-01-14T10:00:00.000Z'],
    ['iso', '2025-01-14 10:00:00', '2025-01-14T10:00:00.000Z'],
    ['dd/MM/yyyy HH:mm', '14/01/2025 10:00', '2025-01-14T10:00:00.000Z'],
  ])('%s reads %p as an instant', (format, value, iso) => {
    expect(readCursorDate(value, format)?.toISO()).toBe(iso);
  });

  it('a value not in the declared format reads as nothing', () => {
    expect(readCursorDate('2025-01-14', 'rfc2822')).toBeNull();
    expect(readCursorDate('', 'unix')).toBeNull();
  });

  it('accepts named formats and patterns that read a date back, not ones that cannot', () => {
    expect(isReadablePattern('rfc2822')).toBe(true);
    expect(isReadablePattern('yyyyMMdd')).toBe(true);
    expect(isReadablePattern('EEEE')).toBe(false);
    expect(isReadablePattern('banana')).toBe(false);
  });
});
