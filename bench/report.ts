import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Figure } from './measure';

export type Unit = 's' | 'ms' | 'req/s' | 'MB';

/** A measured figure beside our path's main one, e.g. peak memory or a latency percentile. */
export interface SideFigure {
  label: string;
  figure: Figure;
  unit: Unit;
}

export interface BenchRow {
  what: string;
  ourPath: string;
  baselinePath: string;
  unit: Unit;
  ours: Figure;
  baseline: Figure;
  /** ours.median / baseline.median. */
  ratio: number;
  target: string;
  met: boolean;
  side: SideFigure[];
  notes: string[];
}

export interface BenchReport {
  startedAt: string;
  seconds: number;
  machine: { cpus: number; memoryGb: number; node: string; postgres: string; loadAverage: number[] };
  settings: Record<string, number | string>;
  rows: BenchRow[];
}

function round(value: number, unit: Unit): string {
  if (unit === 's') return value.toFixed(2);
  if (unit === 'ms') return value.toFixed(1);
  return value.toFixed(0);
}

export function formatFigure(figure: Figure, unit: Unit): string {
  if (figure.runs.length === 1) return `${round(figure.median, unit)} ${unit}`;
  return `${round(figure.median, unit)} ${unit} (${round(figure.min, unit)}–${round(figure.max, unit)})`;
}

export function toMarkdown(report: BenchReport): string {
  const settings = Object.entries(report.settings)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
  const lines = [
    `# Benchmark results`,
    '',
    `Run ${report.startedAt}, ${report.seconds.toFixed(0)} s in all. ${report.machine.cpus} CPUs, ` +
      `${report.machine.memoryGb} GB, Node ${report.machine.node}, ${report.machine.postgres}; ` +
      `load average at start ${report.machine.loadAverage.map((value) => value.toFixed(2)).join(' ')}.`,
    `Settings: ${settings}.`,
    '',
    'Each figure is the median of the runs, with min–max in brackets; the ratio is median over median.',
    '',
    '| What | Our path | Baseline (same run) | Ratio | Target | Met | Also measured |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of report.rows) {
    const side = row.side.map((item) => `${item.label} ${formatFigure(item.figure, item.unit)}`).join('; ');
    lines.push(
      `| ${row.what} | ${formatFigure(row.ours, row.unit)} | ${formatFigure(row.baseline, row.unit)} | ` +
        `${row.ratio.toFixed(2)}× | ${row.target} | ${row.met ? 'yes' : '**no**'} | ${side} |`,
    );
  }
  lines.push('', '## What was measured', '');
  for (const row of report.rows) {
    lines.push(`- **${row.what}**: ${row.ourPath}; baseline: ${row.baselinePath}.`);
    for (const note of row.notes) lines.push(`  ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Writes latest.md and latest.json into `folder`; answers their paths. */
export function writeReport(folder: string, report: BenchReport): string[] {
  mkdirSync(folder, { recursive: true });
  const markdown = join(folder, 'latest.md');
  const json = join(folder, 'latest.json');
  writeFileSync(markdown, toMarkdown(report));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [markdown, json];
}
