const STATIONS = [
  { station: 'Harbour', base: 12 },
  { station: 'Old Town', base: 18 },
  { station: 'University', base: 9 },
  { station: 'Airport', base: 22 },
  { station: 'Riverside', base: 14 },
];

export interface DemoReading {
  station: string;
  measured_at: string;
  pm25: number;
  temperature_c: number;
}

/**
 * Air-quality readings as a sensor network would answer them at `now`: one per station, values
 * that drift with the minute, so every refresh of the demo product brings new numbers.
 */
export function demoReadings(now: Date): DemoReading[] {
  const minute = Math.floor(now.getTime() / 60_000);
  const measuredAt = new Date(minute * 60_000).toISOString();
  return STATIONS.map(({ station, base }, index) => ({
    station,
    measured_at: measuredAt,
    pm25: Math.round((base + 6 * Math.sin(minute / 7 + index)) * 10) / 10,
    temperature_c: Math.round((11 + 4 * Math.sin(minute / 90 + index / 2)) * 10) / 10,
  }));
}
