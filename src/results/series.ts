/**
 * The time series of an experiment, one row per (variant, point, seed, bucket), and per
 * population in populations.csv: built from the runs with the precision the CSV keeps, written
 * as CSV for spreadsheets and notebooks, and parsed back strictly against the columns
 * summary.json declares (name, unit), so `report DIR` draws from exactly what `run` drew from.
 *
 * Counts are per bucket; each column's unit is in summary.json (`columns`) and docs/report.md.
 * Empty cells mean "no value" (no latency in a bucket where nothing was answered).
 */
import type { RunResult } from '../experiment/run-one.js';
import type { Columns } from '../measures/columns.js';
import { round6 } from './numbers.js';
import { ResultsError } from './results-error.js';
import type { ColumnInfoResult } from './results.js';

export interface SeriesTable {
  /** The value columns, in file order (after the key columns). */
  columns: string[];
  rows: number;
  variant: string[];
  point: Int32Array;
  seed: Float64Array;
  /** populations.csv only: the population of each row. */
  population?: string[];
  /** By column; NaN = an empty cell. */
  num: Record<string, Float64Array>;
}

const cell = (x: number) => (Number.isFinite(x) ? round6(x) : NaN);

function build(parts: Array<{ run: RunResult; population?: string; columns: Columns }>, columns: readonly ColumnInfoResult[], withPopulation: boolean): SeriesTable {
  const names = columns.map((c) => c.name);
  const rows = parts.reduce((a, p) => a + (p.columns.t_s?.length ?? 0), 0);
  const t: SeriesTable = {
    columns: names,
    rows,
    variant: new Array(rows),
    point: new Int32Array(rows),
    seed: new Float64Array(rows),
    ...(withPopulation ? { population: new Array(rows) } : {}),
    num: Object.fromEntries(names.map((n) => [n, new Float64Array(rows)])),
  };
  // Column by column, each source and target array looked up once per part, not per cell.
  const targets = names.map((c) => t.num[c]);
  let r0 = 0;
  for (const p of parts) {
    const n = p.columns.t_s.length;
    for (let i = 0, r = r0; i < n; i++, r++) {
      t.variant[r] = p.run.variant;
      t.point[r] = p.run.point;
      t.seed[r] = p.run.seed;
      if (t.population) t.population[r] = p.population!;
    }
    names.forEach((c, k) => {
      const from = p.columns[c], to = targets[k];
      for (let i = 0; i < n; i++) to[r0 + i] = cell(from[i]);
    });
    r0 += n;
  }
  return t;
}

/** timeseries.csv's table: every finished run's columns, in expansion order. */
export function runSeries(results: ReadonlyArray<RunResult | undefined>, columns: readonly ColumnInfoResult[]): SeriesTable {
  const done = results.filter((r): r is RunResult => !!r);
  return build(done.map((run) => ({ run, columns: run.columns })), columns, false);
}

/** populations.csv's table: every finished run's populations, each in scenario order. */
export function populationSeries(results: ReadonlyArray<RunResult | undefined>, columns: readonly ColumnInfoResult[]): SeriesTable {
  const done = results.filter((r): r is RunResult => !!r);
  return build(done.flatMap((run) => run.populations.map((p) => ({ run, population: p.name, columns: p.columns }))), columns, true);
}

const keyColumns = (t: { population?: unknown }) => (t.population ? ['variant', 'point', 'seed', 'population'] : ['variant', 'point', 'seed']);

export function seriesCsv(t: SeriesTable): string {
  const lines = [[...keyColumns(t), ...t.columns].join(',')];
  const cols = t.columns.map((c) => t.num[c]);
  for (let r = 0; r < t.rows; r++) {
    let line = `${t.variant[r]},${t.point[r]},${t.seed[r]}`;
    if (t.population) line += `,${t.population[r]}`;
    for (let c = 0; c < cols.length; c++) {
      const x = cols[c][r];
      line += Number.isNaN(x) ? ',' : `,${x}`;
    }
    lines.push(line);
  }
  return lines.join('\n') + '\n';
}

/**
 * Parses a CSV written by seriesCsv against the columns summary.json declares. Names cannot
 * hold commas or quotes (the scenario schema forbids them), so a line splits on commas.
 */
export function parseSeriesCsv(csv: string, columns: readonly ColumnInfoResult[], withPopulation: boolean, file: string): SeriesTable {
  const lines = csv.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const expected = [...keyColumns({ population: withPopulation || undefined }), ...columns.map((c) => c.name)];
  if (lines.length === 0 || lines[0] !== expected.join(',')) {
    throw new ResultsError(`${file}: its header is not the columns summary.json declares (${expected.slice(0, 6).join(',')},…): not written by this run`);
  }
  const rows = lines.length - 1;
  const t: SeriesTable = {
    columns: columns.map((c) => c.name),
    rows,
    variant: new Array(rows),
    point: new Int32Array(rows),
    seed: new Float64Array(rows),
    ...(withPopulation ? { population: new Array(rows) } : {}),
    num: Object.fromEntries(columns.map((c) => [c.name, new Float64Array(rows)])),
  };
  const keys = withPopulation ? 4 : 3;
  const cols = t.columns.map((c) => t.num[c]);
  for (let r = 0; r < rows; r++) {
    const cells = lines[r + 1].split(',');
    if (cells.length !== expected.length) throw new ResultsError(`${file}:${r + 2}: ${cells.length} cells, but the header has ${expected.length}`);
    t.variant[r] = cells[0];
    t.point[r] = Number(cells[1]);
    t.seed[r] = Number(cells[2]);
    if (t.population) t.population[r] = cells[3];
    for (let c = 0; c < t.columns.length; c++) {
      const text = cells[keys + c];
      const x = text === '' ? NaN : Number(text);
      if (text !== '' && !Number.isFinite(x)) throw new ResultsError(`${file}:${r + 2}: "${text}" in column ${t.columns[c]} is not a number`);
      cols[c][r] = x;
    }
  }
  return t;
}
