import { CHART_POINT_LIMIT, chartPoints, defaultAxes } from './chartData';

describe('charting a query result', () => {
  const columns = [
    { name: 'city', type: 'text' },
    { name: 'year', type: 'int4' },
    { name: 'visitors', type: 'numeric' },
  ];

  it('picks a label column for X and a number for Y, and nothing without numbers', () => {
    expect(defaultAxes(columns)).toEqual({ x: 0, y: 1 });
    expect(
      defaultAxes([
        { name: 'a', type: 'int8' },
        { name: 'b', type: 'float8' },
      ]),
    ).toEqual({ x: 0, y: 1 });
    expect(defaultAxes([{ name: 'only', type: 'int8' }])).toEqual({ x: 0, y: 0 });
    expect(defaultAxes([{ name: 'name', type: 'text' }])).toBeNull();
  });

  it('plots numeric Y values, leaving out rows without one, with X as text for bar and line', () => {
    const rows = [
      ['Berlin', 2020, 10],
      ['Paris', 2021, null],
      [null, 2022, '7.5'],
      ['Rome', 2023, 'n/a'],
    ];
    expect(chartPoints(rows, 0, 2, 'bar')).toEqual([
      { x: 'Berlin', y: 10 },
      { x: '(null)', y: 7.5 },
    ]);
  });

  it('needs a numeric X for scatter', () => {
    const rows = [
      ['Berlin', 2020, 10],
      ['Paris', null, 3],
    ];
    expect(chartPoints(rows, 1, 2, 'scatter')).toEqual([{ x: 2020, y: 10 }]);
    expect(chartPoints(rows, 0, 2, 'scatter')).toEqual([]);
  });

  it('draws at most the point limit', () => {
    const rows = Array.from({ length: CHART_POINT_LIMIT + 5 }, (_, index) => [String(index), index]);
    expect(chartPoints(rows, 0, 1, 'line')).toHaveLength(CHART_POINT_LIMIT);
  });
});
