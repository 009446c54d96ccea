import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { ScatterChart } from '@mui/x-charts/ScatterChart';
import { useState } from 'react';
import type { QueryResult } from '../../api/query';
import {
  CHART_KINDS,
  CHART_POINT_LIMIT,
  ChartKind,
  chartPoints,
  defaultAxes,
  isNumericColumn,
} from '../../features/query/chartData';

const CHART_HEIGHT = 320;

/** A bar, line or scatter chart of two columns of the result, chosen by the user. */
export function ResultChart({ result }: { result: QueryResult }) {
  const guess = defaultAxes(result.columns);
  const [kind, setKind] = useState<ChartKind>('bar');
  const [x, setX] = useState(guess?.x ?? 0);
  const [y, setY] = useState(guess?.y ?? 0);
  if (!guess)
    return (
      <Typography role="status" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
        Nothing to chart: the result has no numeric column.
      </Typography>
    );
  const points = chartPoints(result.rows, x, y, kind);
  const yLabel = result.columns[y]?.name ?? '';
  const xLabel = result.columns[x]?.name ?? '';
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={kind}
          onChange={(_event, value: ChartKind | null) => value && setKind(value)}
          aria-label="Chart type"
        >
          {CHART_KINDS.map((option) => (
            <ToggleButton key={option} value={option} sx={{ textTransform: 'capitalize', px: 2 }}>
              {option}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          label="X"
          value={x}
          onChange={(event) => setX(Number(event.target.value))}
          sx={{ minWidth: 160 }}
        >
          {result.columns.map((column, index) => (
            <MenuItem key={index} value={index}>
              {column.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Y"
          value={y}
          onChange={(event) => setY(Number(event.target.value))}
          sx={{ minWidth: 160 }}
        >
          {result.columns.map((column, index) =>
            isNumericColumn(column) ? (
              <MenuItem key={index} value={index}>
                {column.name}
              </MenuItem>
            ) : null,
          )}
        </TextField>
      </Stack>
      {points.length === 0 ? (
        <Typography role="status" color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {kind === 'scatter' ? 'A scatter chart needs numbers on both axes.' : 'No numbers to chart.'}
        </Typography>
      ) : (
        <figure aria-label={`${kind} chart of ${yLabel} by ${xLabel}`} style={{ margin: 0 }}>
          <ChartOf kind={kind} points={points} xLabel={xLabel} yLabel={yLabel} />
          {result.rows.length > CHART_POINT_LIMIT && (
            <Typography variant="caption" color="text.secondary">
              The chart shows the first {CHART_POINT_LIMIT.toLocaleString('en')} rows.
            </Typography>
          )}
        </figure>
      )}
    </Stack>
  );
}

interface ChartOfProps {
  kind: ChartKind;
  points: Array<{ x: number | string; y: number }>;
  xLabel: string;
  yLabel: string;
}

function ChartOf({ kind, points, xLabel, yLabel }: ChartOfProps) {
  const values = points.map((point) => point.y);
  const labels = points.map((point) => point.x);
  if (kind === 'scatter')
    return (
      <ScatterChart
        height={CHART_HEIGHT}
        series={[
          {
            label: yLabel,
            data: points.map((point, index) => ({ id: index, x: Number(point.x), y: point.y })),
          },
        ]}
        xAxis={[{ label: xLabel }]}
        yAxis={[{ label: yLabel }]}
      />
    );
  if (kind === 'line')
    return (
      <LineChart
        height={CHART_HEIGHT}
        series={[{ label: yLabel, data: values }]}
        xAxis={[{ scaleType: 'point', data: labels, label: xLabel }]}
      />
    );
  return (
    <BarChart
      height={CHART_HEIGHT}
      series={[{ label: yLabel, data: values }]}
      xAxis={[{ scaleType: 'band', data: labels, label: xLabel }]}
    />
  );
}
