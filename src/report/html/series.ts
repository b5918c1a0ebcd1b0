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
import type { ColumnInfoResult } from '../../results/results.js';

export const MAX_POINTS = 600;

/** Known columns the dedicated charts draw, in the order they are shipped. */
const DRAWN = ['load_multiple', 'first_tries', 'retries', 'goodput_per_s', 'success_ratio', 'latency_p50_ms', 'latency_p99_ms', 'queue_len', 'busy_slots', 'slots', 'wasted_work_s'];
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

export function prepareSeries(b: ResultsBundle, pointIndex: number, maxPoints = MAX_POINTS): PreparedSeries | null {
  const r = b.results;
  const tab = b.series;
  if (tab.rows === 0) return null;
  const info = r.columns.run.filter((c) => c.name !== 't_s');
  const failureColumns = info.filter((c) => c.name.startsWith('fail_')).map((c) => c.name);
  const extraColumns = info.filter((c) => !c.name.startsWith('fail_') && !DRAWN.includes(c.name) && !NOT_DRAWN.has(c.name)).map((c) => c.name);
  const present = new Set(info.map((c) => c.name));
  const columns = [...DRAWN.filter((c) => present.has(c)), ...failureColumns, ...extraColumns];
  const perSecond = new Set(info.filter(isCount).map((c) => c.name));

  const bS = r.bucketS;
  const nb = Math.max(1, Math.ceil(r.horizonS / bS - 1e-9));
  const factor = Math.max(1, Math.ceil(nb / maxPoints));
  const width = (i: number) => Math.max(1e-9, Math.min(bS, r.horizonS - i * bS));
  const time = tab.num.t_s;
  const load = tab.num.load_multiple;

  const variants = r.variants.map((v): VariantSeries => {
    const sum: Record<string, Float64Array> = {};
    const cnt: Record<string, Float64Array> = {};
    for (const c of columns) { sum[c] = new Float64Array(nb); cnt[c] = new Float64Array(nb); }
    const lo = new Float64Array(nb).fill(Infinity);
    const hi = new Float64Array(nb).fill(-Infinity);
    const seeds = new Set<number>();
    for (let row = 0; row < tab.rows; row++) {
      if (tab.variant[row] !== v.name || tab.point[row] !== pointIndex) continue;
      const i = Math.round(time[row] / bS);
      if (!(i >= 0 && i < nb)) continue;
      seeds.add(tab.seed[row]);
      for (const c of columns) {
        const x = tab.num[c][row];
        if (Number.isNaN(x)) continue;
        sum[c][i] += perSecond.has(c) ? x / width(i) : x;
        cnt[c][i]++;
      }
      if (load && !Number.isNaN(load[row])) {
        lo[i] = Math.min(lo[i], load[row]);
        hi[i] = Math.max(hi[i], load[row]);
      }
    }
    // Merge `factor` consecutive buckets, weighting each by its width (the last may be short).
    const groups = Math.ceil(nb / factor);
    const data: Record<string, Array<number | null>> = { t: new Array(groups) };
    for (const c of [...columns, 'load_lo', 'load_hi']) data[c] = new Array(groups);
    for (let g = 0; g < groups; g++) {
      const from = g * factor, to = Math.min(nb, from + factor);
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

  const values = r.sweep?.points.find((p) => p.index === pointIndex)?.values;
  return {
    columns,
    failureColumns,
    extraColumns,
    perSecond,
    factor,
    widthS: factor * bS,
    point: r.sweep && values ? { index: pointIndex, values } : null,
    variants,
  };
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
