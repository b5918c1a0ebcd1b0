/**
 * Turns timeseries.csv into what the time-series charts draw: per variant, the mean across
 * seeds of every bucket, with long runs merged into at most ~600 points per series so a
 * 4-hour, 10-seed report stays small and quick to draw. Counts per bucket become rates per
 * second, so a merged point means the same thing as a raw one. Offered load also keeps the
 * lowest and highest value (across seeds and merged buckets): averaging would otherwise
 * flatten exactly the peaks a retry storm is about.
 *
 * Columns are sorted by name pattern, not by a fixed list, so columns added to the CSV
 * later are still drawn: every `fail_*` / `reject*_*` column as a failure cause, and any
 * other unknown column in the generic "other series" chart.
 */
import { featuredPoint, type Results } from './results.js';

export const MAX_POINTS = 600;

const KEYS = new Set(['variant', 'point', 'seed', 't_s']);
/** Failures and rejections by reason: one stacked chart per variant. */
export const FAILURE_FAMILY = /^(fail|failed|reject|rejected|rejection|rejections|rej)_/;
/** Levels and ratios are averaged as they are; anything else is a count per bucket. */
const LEVEL = /^(queue_len|busy_slots|slots)$|_(ms|s_mean|per_s|ratio|share|multiple|use|used|utilisation|utilization|level|len|fraction|limit|capacity)$/;
/** Known columns the charts draw, in the order they are shipped. */
const DRAWN = ['load_multiple', 'first_tries', 'retries', 'goodput_per_s', 'success_ratio', 'latency_p50_ms', 'latency_p99_ms', 'queue_len', 'busy_slots', 'slots', 'wasted_work_s'];
/** Known columns left out: totals and ratios that drawn columns already show. */
const NOT_DRAWN = new Set(['attempts', 'attempts_ok', 'actions_started', 'actions_ok', 'actions_failed', 'retry_share']);

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
  /** CSV buckets merged into one plotted point, and that point's width in seconds. */
  factor: number;
  widthS: number;
  /** The sweep point whose series are drawn (see featuredPoint), or null without a sweep. */
  point: { index: number; values: Record<string, string | number> } | null;
  variants: VariantSeries[];
}

export const isCountColumn = (c: string) => !LEVEL.test(c);

const sig4 = (x: number) => (x === 0 ? 0 : Number(x.toPrecision(4)));

export function prepareSeries(r: Results, maxPoints = MAX_POINTS): PreparedSeries | null {
  const tab = r.series;
  if (!tab || tab.length === 0 || !tab.num.t_s) return null;
  // Names go into chart field references and expressions: keep plain identifiers only.
  const numeric = tab.columns.filter((c) => !KEYS.has(c) && /^[A-Za-z][A-Za-z0-9_]*$/.test(c));
  const failureColumns = numeric.filter((c) => FAILURE_FAMILY.test(c));
  const extraColumns = numeric.filter((c) => !FAILURE_FAMILY.test(c) && !DRAWN.includes(c) && !NOT_DRAWN.has(c));
  const columns = [...DRAWN.filter((c) => numeric.includes(c)), ...failureColumns, ...extraColumns];

  const first = featuredPoint(r);
  const swept = r.sweep !== null || r.variants.some((v) => v.points.length > 1);
  const pointCol = tab.num.point;
  const wantPoint = first?.index ?? 0;
  const b = r.bucketS;
  const nb = Math.max(1, Math.ceil(r.horizonS / b - 1e-9));
  const factor = Math.max(1, Math.ceil(nb / maxPoints));
  const width = (i: number) => Math.max(1e-9, Math.min(b, r.horizonS - i * b));

  const variants = r.variants.map((v): VariantSeries => {
    const sum: Record<string, Float64Array> = {};
    const cnt: Record<string, Float64Array> = {};
    for (const c of columns) { sum[c] = new Float64Array(nb); cnt[c] = new Float64Array(nb); }
    const lo = new Float64Array(nb).fill(Infinity);
    const hi = new Float64Array(nb).fill(-Infinity);
    const seeds = new Set<number>();
    const load = tab.num.load_multiple;
    for (let row = 0; row < tab.length; row++) {
      if (tab.text.variant[row] !== v.name) continue;
      if (pointCol && pointCol[row] !== wantPoint) continue;
      const i = Math.round(tab.num.t_s[row] / b);
      if (!(i >= 0 && i < nb)) continue;
      if (tab.num.seed) seeds.add(tab.num.seed[row]);
      for (const c of columns) {
        const x = tab.num[c][row];
        if (Number.isNaN(x)) continue;
        sum[c][i] += isCountColumn(c) ? x / width(i) : x;
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
      data.t[g] = from * b;
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
    if (!tab.num.load_multiple) { delete data.load_lo; delete data.load_hi; }
    return { variant: v.name, seeds: seeds.size, data };
  });

  return {
    columns,
    failureColumns,
    extraColumns,
    factor,
    widthS: factor * b,
    point: swept && first ? { index: first.index, values: first.values } : null,
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
