/**
 * Turns the time series into what the time-series charts draw: per variant, the mean across
 * seeds of every bucket, with long runs merged into at most ~600 points per series so a
 * 4-hour, 10-seed report stays small and quick to draw. Counts per bucket become rates per
 * second, so a merged point means the same thing as a raw one. Offered load also keeps the
 * lowest and highest value (across seeds and merged buckets): averaging would otherwise
 * flatten exactly the peaks a retry storm is about.
 *
 * Each column's unit comes from summary.json's column list, so a count is never mistaken for
 * a level; columns no dedicated chart draws go to the generic "other series" chart.
 */
import type { ResultsBundle } from '../../results/bundle.js';
import { clockOf, type ColumnInfoResult } from '../../results/results.js';
import type { SeriesTable } from '../../results/series.js';

export const MAX_POINTS = 600;

/** Known columns the dedicated charts draw, in the order they are shipped. */
const DRAWN = ['load_multiple', 'first_tries', 'retries', 'goodput_per_s', 'success_ratio', 'latency_p50_ms', 'latency_p99_ms', 'action_latency_p50_ms', 'action_latency_p99_ms', 'queue_len', 'busy_slots', 'slots', 'wasted_work_s'];
/** Known columns left out: totals and ratios that drawn columns already show. */
const NOT_DRAWN = new Set(['t_s', 'attempts', 'attempts_ok', 'actions_started', 'actions_ok', 'actions_failed', 'retry_share']);

export interface VariantSeries {
  variant: string;
  seeds: number;
  /** `t` (start of each plotted point, seconds) and one array per shipped column; null = no value. */
  data: Record<string, Array<number | null>>;
}

export interface PreparedSeries {
  /** Shipped columns, besides `t`, `load_lo` and `load_hi`. */
  columns: string[];
  failureColumns: string[];
  extraColumns: string[];
  /** Plotted per second (a count per bucket divided by the bucket's width). */
  perSecond: Set<string>;
  /** CSV buckets merged into one plotted point, and that point's width in seconds. */
  factor: number;
  widthS: number;
  /** The sweep point whose series are drawn, or null without a sweep. */
  point: { index: number; values: Record<string, string | number> } | null;
  variants: VariantSeries[];
}

/** Counted per bucket (merged by summing): charts show them per second. */
export const isCount = (c: ColumnInfoResult) => c.unit === 'count' || c.unit === 'slot-seconds';

const sig4 = (x: number) => (x === 0 ? 0 : Number(x.toPrecision(4)));

/** Each (variant, point)'s rows of a table, in file order, found in one pass and kept with the table. */
const rowIndex = new WeakMap<SeriesTable, Map<string, number[]>>();
function rowsOf(tab: SeriesTable, variant: string, point: number): readonly number[] {
  let index = rowIndex.get(tab);
  if (!index) {
    index = new Map();
    for (let row = 0; row < tab.rows; row++) {
      const key = `${tab.point[row]}\u0000${tab.variant[row]}`;
      let rows = index.get(key);
      if (!rows) index.set(key, (rows = []));
      rows.push(row);
    }
    rowIndex.set(tab, index);
  }
  return index.get(`${point}\u0000${variant}`) ?? [];
}

export function prepareSeries(b: ResultsBundle, pointIndex: number, maxPoints = MAX_POINTS, prune = true): PreparedSeries | null {
  const r = b.results;
  const tab = b.series;
  if (tab.rows === 0) return null;
  const info = r.columns.run.filter((c) => c.name !== 't_s');
  const failureColumns = info.filter((c) => c.name.startsWith('fail_')).map((c) => c.name);
  const extraColumns = info.filter((c) => !c.name.startsWith('fail_') && !DRAWN.includes(c.name) && !NOT_DRAWN.has(c.name)).map((c) => c.name);
  const present = new Set(info.map((c) => c.name));
  const columns = [...DRAWN.filter((c) => present.has(c)), ...failureColumns, ...extraColumns];
  const perSecond = new Set(info.filter(isCount).map((c) => c.name));

  // The scenario's buckets set how many are merged into a plotted point; a variant with a
  // horizon or buckets of its own (clockOf) is merged to about the same plotted width.
  const nbBase = Math.max(1, Math.ceil(r.horizonS / r.bucketS - 1e-9));
  const factor = Math.max(1, Math.ceil(nbBase / maxPoints));
  const time = tab.num.t_s;
  const load = tab.num.load_multiple;
  const sources = columns.map((c) => tab.num[c]);
  const ratePerSecond = columns.map((c) => perSecond.has(c));

  const variants = r.variants.map((v): VariantSeries => {
    const { horizonS, bucketS: bS } = clockOf(r, v);
    const nb = Math.max(1, Math.ceil(horizonS / bS - 1e-9));
    const merge = bS === r.bucketS ? factor : Math.max(1, Math.round((factor * r.bucketS) / bS));
    const width = (i: number) => Math.max(1e-9, Math.min(bS, horizonS - i * bS));
    // By column position, looked up once: this loop visits every row of the CSV for every
    // variant and sweep point (the flagship: 57,600 rows x 10 variants x 8 points).
    const sums = columns.map(() => new Float64Array(nb));
    const cnts = columns.map(() => new Float64Array(nb));
    const sum: Record<string, Float64Array> = Object.fromEntries(columns.map((c, k) => [c, sums[k]]));
    const cnt: Record<string, Float64Array> = Object.fromEntries(columns.map((c, k) => [c, cnts[k]]));
    const lo = new Float64Array(nb).fill(Infinity);
    const hi = new Float64Array(nb).fill(-Infinity);
    const seeds = new Set<number>();
    for (const row of rowsOf(tab, v.name, pointIndex)) {
      const i = Math.round(time[row] / bS);
      if (!(i >= 0 && i < nb)) continue;
      seeds.add(tab.seed[row]);
      for (let k = 0; k < columns.length; k++) {
        const x = sources[k][row];
        if (Number.isNaN(x)) continue;
        sums[k][i] += ratePerSecond[k] ? x / width(i) : x;
        cnts[k][i]++;
      }
      if (load && !Number.isNaN(load[row])) {
        lo[i] = Math.min(lo[i], load[row]);
        hi[i] = Math.max(hi[i], load[row]);
      }
    }
    // Merge `merge` consecutive buckets, weighting each by its width (the last may be short).
    const groups = Math.ceil(nb / merge);
    const data: Record<string, Array<number | null>> = { t: new Array(groups) };
    for (const c of [...columns, 'load_lo', 'load_hi']) data[c] = new Array(groups);
    for (let g = 0; g < groups; g++) {
      const from = g * merge, to = Math.min(nb, from + merge);
      data.t[g] = from * bS;
      for (const c of columns) {
        let s = 0, w = 0;
        for (let i = from; i < to; i++) if (cnt[c][i] > 0) { s += (sum[c][i] / cnt[c][i]) * width(i); w += width(i); }
        data[c][g] = w > 0 ? sig4(s / w) : null;
      }
      let l = Infinity, h = -Infinity;
      for (let i = from; i < to; i++) { l = Math.min(l, lo[i]); h = Math.max(h, hi[i]); }
      data.load_lo[g] = Number.isFinite(l) ? sig4(l) : null;
      data.load_hi[g] = Number.isFinite(h) ? sig4(h) : null;
    }
    if (!load) { delete data.load_lo; delete data.load_hi; }
    return { variant: v.name, seeds: seeds.size, data };
  });

  // A failure cause that never occurs gets no column, hence no legend entry nor colour; an
  // other series that is zero throughout gets no panel.
  const values = r.sweep?.points.find((p) => p.index === pointIndex)?.values;
  const prepared: PreparedSeries = {
    columns,
    failureColumns,
    extraColumns,
    perSecond,
    factor,
    widthS: factor * r.bucketS,
    point: r.sweep && values ? { index: pointIndex, values } : null,
    variants,
  };
  if (prune) pruneColumns([prepared]);
  return prepared;
}

/** Drops, from every one of `all`, the failure and other columns that are zero (or empty) in all of them. */
function pruneColumns(all: PreparedSeries[]): void {
  const occurs = (c: string) => all.some((p) => p.variants.some((v) => v.data[c]?.some((x) => x !== null && x !== 0)));
  const first = all[0];
  const gone = new Set([...first.failureColumns, ...first.extraColumns].filter((c) => !occurs(c)));
  for (const p of all) {
    for (const v of p.variants) for (const c of gone) delete v.data[c];
    p.columns = p.columns.filter((c) => !gone.has(c));
    p.failureColumns = p.failureColumns.filter((c) => !gone.has(c));
    p.extraColumns = p.extraColumns.filter((c) => !gone.has(c));
  }
}

/**
 * The series JSON a report may carry, in bytes (the vega builds take 0.83 MB): with it, the
 * flagship's report.html (8 variants x 8 outage lengths x 4 h) stays under 3 MB.
 */
export const SERIES_BUDGET_BYTES = 1_500_000;

export interface AllSeries {
  /** One prepared series per sweep point (one without a sweep), in sweep order; the same columns and merging in each. */
  points: PreparedSeries[];
  /** Buckets merged into one plotted point only to stay within the byte budget (1: none beyond MAX_POINTS). */
  budgetFactor: number;
}

/**
 * Every sweep point's series, so the page can switch points without re-reading files. When
 * all of them would exceed `budget` bytes as JSON, consecutive buckets are merged (the same
 * factor at every point, so switching points compares like with like) until they fit.
 */
export function prepareAllSeries(b: ResultsBundle, budget: number = SERIES_BUDGET_BYTES): AllSeries | null {
  const r = b.results;
  if (b.series.rows === 0) return null;
  const indices = r.sweep ? r.sweep.points.map((p) => p.index) : [0];
  const nb = Math.max(1, Math.ceil(r.horizonS / r.bucketS - 1e-9));
  const base = Math.max(1, Math.ceil(nb / MAX_POINTS));
  const build = (factor: number) => {
    const maxPoints = Math.ceil(nb / factor);
    const points = indices.map((i) => prepareSeries(b, i, maxPoints, false)!);
    pruneColumns(points);
    return points;
  };
  let factor = base;
  let points = build(factor);
  const size = (ps: PreparedSeries[]) => JSON.stringify(ps.map((p) => p.variants)).length;
  let bytes = size(points);
  while (bytes > budget && factor < nb) {
    // Merging k buckets divides the size by about k: jump close to the factor that fits.
    factor = Math.min(nb, Math.max(factor + 1, Math.ceil(factor * bytes / budget)));
    points = build(factor);
    bytes = size(points);
  }
  return { points, budgetFactor: factor / base };
}

/** The rows the charts' `series` dataset holds (the page does the same in its script). */
export function seriesRows(p: PreparedSeries, timeDivisor: number): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const v of p.variants) {
    const keys = Object.keys(v.data);
    for (let i = 0; i < v.data.t.length; i++) {
      const row: Record<string, unknown> = { variant: v.variant };
      for (const k of keys) row[k] = v.data[k][i];
      row.t = (v.data.t[i] as number) / timeDivisor;
      rows.push(row);
    }
  }
  return rows;
}
