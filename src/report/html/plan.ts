/**
 * Decides which charts a report has and builds the small datasets they share, from the
 * results: a chart whose columns or fields are absent is left out (and said so), never drawn
 * empty. The specs stay pure functions of a ChartContext; the data travel once, in the
 * page's JSON block, under the names in DATASETS.
 */
import type { ResultsBundle } from '../../results/bundle.js';
import { clockOf, longestHorizon, type Results } from '../../results/results.js';
import { atPoint, featuredPointIndex } from '../cells.js';
import { FAULT_LENGTH } from '../../scenario/sweep.js';
import { prepareAllSeries, seriesRows, type PreparedSeries } from './series.js';
import { DATASETS, timeScale, variantColors, type Chart, type ChartContext } from '../charts/common.js';
import { loadChart } from '../charts/load.js';
import { attemptsChart } from '../charts/attempts.js';
import { goodputChart } from '../charts/goodput.js';
import { latencyChart, userLatencyChart } from '../charts/latency.js';
import { failuresChart } from '../charts/failures.js';
import { queueChart } from '../charts/queue.js';
import { amplificationChart } from '../charts/amplification.js';
import { recoveryCurveChart, type SweepAxis } from '../charts/recovery-curve.js';
import { extraSeriesChart } from '../charts/extra-series.js';
import { HEATMAP_MEASURES, HEATMAP_STATUS, heatmapChart, type HeatmapAxis } from '../charts/heatmap.js';
import { populationsChart } from '../charts/populations.js';
import { searchRows, tippingPointsChart } from '../charts/tipping-points.js';
import { populationRows, roleFlag } from '../populations-view.js';
import type { Role } from '../../scenario/schema-clients.js';
import { actionRows, whenText } from '../actions-view.js';
import { pointLabel } from '../cells.js';
import { formatDuration, parseDuration, parseRate } from '../../scenario/units.js';
import { formatValue } from '../../measures/format.js';
import { formatInterval } from '../../measures/format.js';
import { cellOf, healthyBefore, seedsText, UNHEALTHY_TEXT } from '../cells.js';

export const CHART_WIDTH = 760;

type Row = Record<string, unknown>;

export interface ReportPlan {
  ctx: ChartContext;
  charts: Chart[];
  /** Time-series data of the featured point, by variant and column (the page turns them into `series` rows). */
  series: PreparedSeries | null;
  /** The featured point's index (0 without a sweep). */
  featured: number;
  /**
   * Every sweep point's time series and point-specific datasets (fault windows, attempts per
   * action), for the page's point selector; the featured point's are also `series`/`datasets`.
   */
  points: Array<{ index: number; label: string; series: PreparedSeries | null; datasets: Record<string, Row[]> }>;
  /** The other datasets, as rows. */
  datasets: Record<string, Row[]>;
  /** Things the reader should know about what is (not) drawn. */
  notes: string[];
}

/** `seriesBudget`: bytes of series JSON the page may carry (tests make it small to see the downsampling). */
export function planReport(b: ResultsBundle, seriesBudget?: number): ReportPlan {
  const r = b.results;
  const names = r.variants.map((v) => v.name);
  const time = timeScale(longestHorizon(r));
  const ctx: ChartContext = { variants: names, colors: variantColors(names.length), time, width: CHART_WIDTH, ...(r.observed ? { observed: r.observed.series.map((s) => s.column) } : {}) };
  const featured = featuredPointIndex(r);
  const all = prepareAllSeries(b, seriesBudget);
  const series = all ? all.points.find((p) => (p.point?.index ?? 0) === featured) ?? all.points[0] : null;
  if (all) ctx.extents = extentsOf(all.points);
  const notes: string[] = [];
  const charts: Chart[] = [];
  const has = (...cols: string[]) => !!series && cols.every((c) => series.columns.includes(c));

  if (!series) notes.push('No run finished: no time-series charts.');
  else {
    if (all!.budgetFactor > 1) {
      notes.push(`Downsampled to keep this page small: the time series of all ${all!.points.length} sweep points are carried, with ${series.factor} consecutive ${formatDuration(r.bucketS)} buckets averaged into each plotted point (${formatDuration(series.widthS)}; offered load keeps each merged stretch's lowest and highest value as its band). timeseries.csv has every bucket.`);
    } else if (series.factor > 1) notes.push(`Time series: ${series.factor} consecutive ${formatDuration(r.bucketS)} buckets are averaged into each plotted point (${formatDuration(series.widthS)}).`);
    if (r.seeds.length > 1) notes.push(`Time series show the mean across ${r.seeds.length} seeds in each bucket.`);
    if (series.point) {
      const which = r.ranking?.at && r.ranking.points.length === 1 && r.ranking.points[0].point === series.point.index ? 'the sweep point the ranking reads' : 'the first sweep point with runs';
      notes.push(`Time series, fault windows and attempts per action show the sweep point chosen above; the page opens on ${which} (${Object.entries(series.point.values).map(([k, v]) => `${k} = ${v}`).join(', ')}).`);
    }
    if (has('load_multiple')) charts.push(loadChart(ctx));
    // What the users waited, right after the load that made them wait.
    if (has('action_latency_p50_ms') || has('action_latency_p99_ms')) charts.push(userLatencyChart(ctx));
    if (has('first_tries', 'retries')) charts.push(attemptsChart(ctx));
    if (has('goodput_per_s') || has('success_ratio')) charts.push(goodputChart(ctx));
    if (has('latency_p50_ms') || has('latency_p99_ms')) charts.push(latencyChart(ctx));
    if (series.failureColumns.length > 0) charts.push(failuresChart(ctx, series.failureColumns));
    if (has('queue_len') || has('busy_slots')) charts.push(queueChart(ctx));
  }

  const amplification = amplificationRows(r, featured);
  if (amplification.length > 0) charts.push(amplificationChart(ctx));

  const sweep = sweepRows(r, time.divisor);
  if (sweep) charts.push(recoveryCurveChart({ ...ctx }, sweep.axis));

  const search = r.search ? searchRows(r.search) : null;
  if (r.search && search) charts.push(tippingPointsChart(ctx, r.search));

  const heat = heatmapRows(r);
  if (heat) charts.push(heatmapChart(ctx, heat.axis));

  const pops = populationChartRows(r, featured, time.divisor);
  if (pops.rows.length > 0) charts.push(populationsChart(ctx, pops.populations, pointLabel(r.variants.map((v) => atPoint(v, featured)).find((p) => p)?.values ?? {})));

  if (series && series.extraColumns.length > 0) {
    charts.push(extraSeriesChart(ctx, series.extraColumns.map((name) => ({ name, perSecond: series.perSecond.has(name) }))));
  }

  const pointDatasets = (index: number): Record<string, Row[]> => {
    const faults = faultRows(r, index, time.divisor);
    const seen = new Set<string>();
    const faultWindows = faults.filter((f) => {
      const key = `${f.kind}|${f.start}|${f.end}`;
      return seen.has(key) ? false : (seen.add(key), true);
    }).map(({ variant: _, ...f }) => f);
    const actions = actionRows(r, index).map((a) => ({
      variant: a.variant, name: a.name, kind: a.kind, t: a.firstS / time.divisor,
      when: whenText(a), why: a.note ? `${a.why} (${a.note})` : a.why, seeds: `${a.seeds} of ${a.of}`,
    }));
    return { [DATASETS.faults]: faults, [DATASETS.faultWindows]: faultWindows, [DATASETS.actions]: actions, [DATASETS.amplification]: amplificationRows(r, index) };
  };
  const indices = r.sweep ? r.sweep.points.map((p) => p.index) : [0];
  const points = indices.map((index) => ({
    index,
    label: r.sweep ? Object.entries(r.sweep.points.find((p) => p.index === index)!.values).map(([k, v]) => `${k} = ${v}`).join(', ') : '',
    series: all?.points.find((p) => (p.point?.index ?? 0) === index) ?? null,
    datasets: pointDatasets(index),
  }));

  return {
    ctx,
    charts,
    series,
    featured,
    points,
    datasets: {
      ...pointDatasets(featured),
      [DATASETS.sweep]: sweep?.rows ?? [],
      [DATASETS.heatmap]: heat?.rows ?? [],
      [DATASETS.populations]: pops.rows,
      [DATASETS.observed]: observedRows(r, time.divisor),
      [DATASETS.search]: search?.tried ?? [],
      [DATASETS.searchTipping]: search?.tipping ?? [],
    },
    notes,
  };
}

/** Smallest positive and largest value of each shipped column, over every variant and point drawn. */
function extentsOf(all: PreparedSeries[]): Record<string, { min: number; max: number }> {
  const out: Record<string, { min: number; max: number }> = {};
  for (const v of all.flatMap((p) => p.variants)) {
    for (const [c, xs] of Object.entries(v.data)) {
      const e = (out[c] ??= { min: Infinity, max: -Infinity });
      for (const x of xs) if (x !== null) { if (x > 0 && x < e.min) e.min = x; if (x > e.max) e.max = x; }
    }
  }
  return out;
}

/** Fault windows per variant at the featured point, in the chart time unit. */
function faultRows(r: Results, point: number, divisor: number): Array<{ variant: string; kind: string; start: number; end: number }> {
  return r.variants.flatMap((v) => {
    const { horizonS } = clockOf(r, v);
    return (atPoint(v, point)?.faults ?? []).map((f) => ({
      variant: v.name,
      kind: f.kind,
      start: Math.max(0, f.startS) / divisor,
      end: Math.min(horizonS, f.endS ?? horizonS) / divisor,
    }));
  });
}

/**
 * Bins of attempts per action: each count up to 5 on its own, then 6–10, 11–20, 21–50,
 * 51–100, 101–200, …: a loop with no ceiling takes 50 or 90 tries, and 90 labels of one
 * try each would run into each other.
 */
export function attemptBins(maxAttempts: number): Array<{ from: number; to: number; label: string }> {
  const bins: Array<{ from: number; to: number; label: string }> = [];
  for (let a = 1; a <= Math.min(5, maxAttempts); a++) bins.push({ from: a, to: a, label: String(a) });
  let from = 6;
  for (let k = 0; from <= maxAttempts; k++) {
    const to = [10, 20, 50][k % 3] * 10 ** Math.floor(k / 3);
    bins.push({ from, to, label: `${from}–${to}` });
    from = to + 1;
  }
  return bins;
}

/** Share of the featured point's finished actions by attempts taken, binned (attemptBins), per variant. */
function amplificationRows(r: Results, point: number): Row[] {
  const rows: Row[] = [];
  const hists = r.variants.map((v) => ({ v, p: atPoint(v, point) })).filter((x) => x.p && x.p.runs > 0);
  const max = Math.max(0, ...hists.map(({ p }) => p!.attemptsHistogram.reduce((m, c, k) => (c > 0 ? k : m), 0)));
  const bins = attemptBins(max);
  for (const { v, p } of hists) {
    const h = p!.attemptsHistogram;
    const total = h.reduce((s, x) => s + x, 0);
    if (total === 0) continue;
    bins.forEach((b, i) => {
      let count = 0;
      for (let a = b.from; a <= b.to && a < h.length; a++) count += h[a];
      if (count > 0) rows.push({ variant: v.name, stat: 'histogram', bin: b.label, order: i, value: count, share: count / total });
    });
  }
  return rows;
}

/** Recovery time by the first swept value (panels by the second), or null without sweep data. */
function sweepRows(r: Results, divisor: number): { axis: SweepAxis; rows: Row[] } | null {
  if (!r.sweep || !r.variants.some((v) => v.points.length > 1)) return null;
  const params = r.sweep.parameters;
  const [p1, p2] = params;
  if (p1 === undefined) return null;
  const firstValues = r.variants.flatMap((v) => v.points.map((p) => p.values[p1])).filter((x) => x !== undefined);
  const x = numericAxis(p1, firstValues);
  const groups: string[] = [];
  const rows: Row[] = [];
  for (const v of r.variants) {
    for (const p of v.points) {
      const raw = p.values[p1];
      if (raw === undefined) continue;
      const group = p2 !== undefined && p.values[p2] !== undefined ? `${p2} = ${p.values[p2]}` : null;
      if (group !== null && !groups.includes(group)) groups.push(group);
      if (p.runs === 0) continue;
      const a = p.measures.recoveryTimeS;
      // Unhealthy before the fault, a "recovery" is a return to a broken state, often at once:
      // it goes with the points that did not recover, not on the curve as a fast recovery.
      const healthy = healthyBefore(p);
      const rt = healthy ? a?.value ?? null : null;
      const frac = p.measures.recovered?.value ?? null;
      rows.push({
        variant: v.name,
        x: x.value(raw),
        label: String(raw),
        ...(group === null ? {} : { group }),
        recovered: rt !== null,
        rt: rt === null ? null : rt / divisor,
        lo: rt !== null && a?.lo != null ? a.lo / divisor : null,
        hi: rt !== null && a?.hi != null ? a.hi / divisor : null,
        recovery: !healthy ? UNHEALTHY_TEXT : rt === null ? 'not recovered' : formatValue('duration', rt),
        fractionText: seedsText(frac, p.runs),
      });
    }
  }
  const notRecovered = r.variants.map((v) => v.name).filter((name) => rows.some((row) => row.variant === name && row.recovered === false));
  const fault = FAULT_LENGTH.exec(p1);
  const positive = rows.map((row) => row.rt).filter((t): t is number => typeof t === 'number' && t > 0);
  const logTime = spansDecades(positive) ? logTicks(Math.max(...positive)) : null;
  const kind = fault ? r.variants.flatMap((v) => v.points).find((p) => p.faults[Number(fault[1])])?.faults[Number(fault[1])].kind ?? '' : '';
  const name = fault ? (/down|outage/.test(kind) ? 'outage length' : 'fault length') : p1;
  return { axis: { title: x.title, name, groups, ordinal: x.ordinal, notRecovered, logTime }, rows };
}

/**
 * Do recovery times span so much that a linear axis flattens most of them? True when the
 * longest is more than LOG_TIME_SPREAD times the median: one variant back after 3 hours put
 * the flagship's axis at 0-210 min, and the four policies its verdict weighs (2m31s to
 * 7m26s) on the zero line.
 */
function spansDecades(times: number[]): boolean {
  if (times.length < 2) return false;
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return sorted[sorted.length - 1] > LOG_TIME_SPREAD * median;
}

const LOG_TIME_SPREAD = 20;

/** Ticks for a symlog time axis: 0, then 1, 2, 5, 10, 20, 50… up to the first at or above `max`. */
function logTicks(max: number): number[] {
  const ticks = [0];
  for (let decade = 1; ticks[ticks.length - 1] < max; decade *= 10) {
    for (const m of [1, 2, 5]) if (ticks[ticks.length - 1] < max) ticks.push(m * decade);
  }
  return ticks;
}

/** Success and perceived outage per variant and population at the compared point (the population table's numbers). */
function populationChartRows(r: Results, point: number, divisor: number): { populations: string[]; rows: Row[] } {
  const table = populationRows(r, point);
  const name = (p: { population: string; role: Role }) => (roleFlag(p.role) ? `${p.population} (${roleFlag(p.role)})` : p.population);
  const rows = table.map((p) => {
    const v = r.variants.find((x) => x.name === p.variant)!;
    const scope = atPoint(v, point)!.populations.find((s) => s.name === p.population)!;
    const text = (key: string) => p.cells.find((c) => c.key === key)?.text ?? '—';
    const outage = scope.measures.perceivedOutageS?.value ?? null;
    return {
      variant: p.variant,
      population: name(p),
      success: scope.measures.successRatio?.value ?? null,
      outageMin: outage === null ? null : outage / divisor,
      successText: text('successRatio'),
      outageText: text('perceivedOutageS'),
      amplificationText: text('attemptsPerAction'),
    };
  });
  return { populations: [...new Set(table.map(name))], rows };
}

/**
 * The heatmap's cells: per variant, sweep point and offered measure, the value in words, a
 * score from 0 (the best value of that measure anywhere) to 1 (the worst), and a status that
 * takes the cell out of the scale (not recovered, unhealthy before the fault, no value).
 * Null without a sweep of two points or more.
 */
function heatmapRows(r: Results): { axis: HeatmapAxis; rows: Row[] } | null {
  if (!r.sweep || r.sweep.points.length < 2) return null;
  const measures = HEATMAP_MEASURES.map((k) => r.measures.find((m) => m.key === k)).filter((m) => m !== undefined);
  if (measures.length === 0) return null;
  const label = (values: Record<string, string | number>) => Object.entries(values).map(([k, v]) => (r.sweep!.parameters.length === 1 ? String(v) : `${k} = ${v}`)).join(', ');
  const points = r.sweep.points.map((p) => label(p.values));
  const rows: Row[] = [];
  for (const m of measures) {
    const cells = r.variants.flatMap((v) => v.points.filter((p) => p.runs > 0).map((p) => ({ v, p, value: p.measures[m.key]?.value ?? null })));
    const values = cells.filter((c) => c.value !== null && healthyBefore(c.p)).map((c) => c.value!);
    const lo = Math.min(...values), hi = Math.max(...values);
    for (const { v, p, value } of cells) {
      const status = !healthyBefore(p) ? HEATMAP_STATUS.unhealthy
        : value === null ? (m.key === 'recoveryTimeS' ? HEATMAP_STATUS.notRecovered : HEATMAP_STATUS.none) : 'ok';
      const t = hi > lo && value !== null ? (value - lo) / (hi - lo) : 0;
      const a = p.measures[m.key];
      rows.push({
        variant: v.name,
        point: label(p.values),
        measure: m.key,
        label: m.label,
        status,
        score: status === 'ok' ? Number((m.better === 'higher' ? 1 - t : t).toFixed(4)) : null,
        text: status === HEATMAP_STATUS.unhealthy ? 'unhealthy' : cellOf(m, p).text,
        interval: a ? formatInterval(m.unit, a.lo, a.hi) ?? '' : '',
      });
    }
  }
  return { axis: { points, measures: measures.map((m) => ({ key: m.key, label: m.label })) }, rows };
}

/** Sweep values as written ("5m", "800/s", 0.9) → numbers for a quantitative axis, when they all read as one kind. */
function numericAxis(param: string, values: Array<string | number>): { title: string; ordinal: boolean; value: (v: string | number) => number } {
  if (values.every((v) => typeof v === 'number')) return { title: param, ordinal: false, value: (v) => v as number };
  const dur = values.map((v) => parseDuration(v));
  if (dur.every((d) => d.ok)) {
    const max = Math.max(...dur.map((d) => (d.ok ? d.value : 0)));
    const [unit, div] = max >= 2 * 3600 ? ['h', 3600] : max >= 120 ? ['min', 60] : ['s', 1];
    return { title: `${param} (${unit})`, ordinal: false, value: (v) => { const d = parseDuration(v); return d.ok ? d.value / div : NaN; } };
  }
  if (values.every((v) => parseRate(v).ok)) return { title: `${param} (/s)`, ordinal: false, value: (v) => { const d = parseRate(v); return d.ok ? d.value : NaN; } };
  const order = [...new Set(values.map(String))];
  return { title: param, ordinal: true, value: (v) => order.indexOf(String(v)) };
}

/**
 * The columns of the `series` dataset a chart reads (every `field` and `fold` entry that
 * names one). The page gives each chart only those: a row with 5 fields instead of 25 is
 * what keeps a 4-variant, 10-seed report quick to draw.
 */
export function seriesFields(chart: Chart, series: PreparedSeries | null): string[] {
  const known = new Set(['variant', 't', 'load_lo', 'load_hi', ...(series?.columns ?? [])]);
  const found = new Set<string>(['variant', 't']);
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'field' && typeof v === 'string' && known.has(v)) found.add(v);
        else if (k === 'fold' && Array.isArray(v)) v.forEach((f) => typeof f === 'string' && known.has(f) && found.add(f));
        else walk(v);
      }
    }
  };
  walk(chart.spec);
  return [...found];
}

/** A chart's spec with its datasets attached, as the page does it: for tests and for exporting one chart. */
export function specWithData(plan: ReportPlan, chart: Chart): Chart['spec'] {
  const fields = seriesFields(chart, plan.series);
  const rows = plan.series ? seriesRows(plan.series, plan.ctx.time.divisor).map((r) => Object.fromEntries(fields.map((f) => [f, r[f]]))) : [];
  const all: Record<string, unknown[]> = { ...plan.datasets, [DATASETS.series]: rows };
  const datasets = Object.fromEntries(chart.datasets.map((n) => [n, all[n] ?? []]));
  return { ...chart.spec, datasets } as Chart['spec'];
}

/** The most points an observed series draws: a day of per-second values would weigh megabytes in the page. */
const OBSERVED_POINTS = 2000;

/**
 * The observed series as chart rows, on the charts' time unit, each labelled at its first
 * value; a long one averaged over runs of consecutive intervals (the values there, an empty
 * run none) so it draws at most OBSERVED_POINTS points. The fit is computed on every value.
 */
function observedRows(r: Results, divisor: number): Row[] {
  return (r.observed?.series ?? []).flatMap((s) => {
    const k = Math.max(1, Math.ceil(s.values.length / OBSERVED_POINTS));
    const rows: Row[] = [];
    for (let j = 0; j < s.values.length; j += k) {
      const xs = s.values.slice(j, j + k).filter((x): x is number => x !== null);
      rows.push({ name: s.name, column: s.column, label: `observed: ${s.name}`, t: (s.startS + j * s.stepS) / divisor, value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null, first: j === 0 });
    }
    return rows;
  });
}
