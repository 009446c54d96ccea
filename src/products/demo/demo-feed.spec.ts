import { demoReadings } from './demo-feed';

describe('demoReadings', () => {
  it('answers one reading per station, stamped with the minute', () => {
    const readings = demoReadings(new Date('2026-11-26T10:15:42Z'));
    expect(readings.map((reading) => reading.station)).toEqual([
      'Harbour',
      'Old Town',
      'University',
      'Airport',
      'Riverside',
    ]);
    expect(new Set(readings.map((reading) => reading.measured_at))).toEqual(
      new Set(['2026-11-26T10:15:00.000Z']),
    );
  });

  it('brings other values a few minutes later, the same ones within a minute', () => {
    const at = new Date('2026-11-26T10:15:00Z');
    expect(demoReadings(new Date('2026-11-26T10:15:59Z'))).toEqual(demoReadings(at));
    const later = demoReadings(new Date('2026-11-26T10:20:00Z'));
    expect(later.map((reading) => reading.pm25)).not.toEqual(demoReadings(at).map((reading) => reading.pm25));
  });
});
