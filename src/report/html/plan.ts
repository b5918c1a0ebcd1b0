/**
 * Decides which charts a report has and builds the small datasets they share, from the
 * results: a chart whose columns or fields are absent is left out (and said so), never drawn
 * empty. The specs stay pure functions of a ChartContext; the data travel once, in the
 * page's JSON block, under the names in DATASETS.
 */
import type { ResultsBundle } from '../../results/bundle.js';
import type { Results } from '../../results/results.js';
import { atPoint, featuredPointIndex } from '../cells.js';
import { prepareSeries, seriesRows, type PreparedSeries } from './series.js';
import { DATASETS, timeScale, variantColors, type Chart, type ChartContext } from '../charts/common.js';
import { loadChart } from '../charts/load.js';
import { attemptsChart } from '../charts/attempts.js';
import { goodputChart } from '../charts/goodput.js';
import { latencyChart } from '../charts/latency.js';
import { failuresChart } from '../charts/failures.js';
import { queueChart } from '../charts/queue.js';
import { amplificationChart } from '../charts/amplification.js';
import { recoveryCurveChart, type SweepAxis } from '../charts/recovery-curve.js';
import { extraSeriesChart } from '../charts/extra-series.js';
import { formatDuration, parseDuration, parseRate } from '../../scenario/units.js';
import { formatValue } from '../../measures/format.js';
import { seedsText } from '../cells.js';

export const CHART_WIDTH = 760;

type Row = Record<string, unknown>;

export interface ReportPlan {
  ctx: ChartContext;
  charts: Chart[];
  /** Time-series data, by variant and column (the page turns them into `series` rows). */
  series: PreparedSeries | null;
  /** The other datasets, as rows. */
  datasets: Record<string, Row[]>;
  /** Things the reader should know about what is (not) drawn. */
  notes: string[];
}

export function planReport(b: ResultsBundle): ReportPlan {
  const r = b.results;
  const names = r.variants.map((v) => v.name);
  const time = timeScale(r.horizonS);
  const ctx: ChartContext = { variants: names, colors: variantColors(names.length), time, width: CHART_WIDTH };
  const featured = featuredPointIndex(r);
  const series = prepareSeries(b, featured);
  const notes: string[] = [];
  const charts: Chart[] = [];
  const has = (...cols: string[]) => !!series && cols.every((c) => series.columns.includes(c));

  if (!series) notes.push('No run finished: no time-series charts.');
  else {
    if (series.factor > 1) notes.push(`Time series: ${series.factor} consecutive ${formatDuration(r.bucketS)} buckets are averaged into each plotted point (${formatDuration(series.widthS)}).`);
    if (r.seeds.length > 1) notes.push(`Time series show the mean across ${r.seeds.length} seeds in each bucket.`);
    if (series.point) {
      const which = r.ranking?.at && r.ranking.points.length === 1 && r.ranking.points[0].point === series.point.index ? 'the sweep point the ranking reads' : 'the first sweep point with runs';
      notes.push(`Time series, fault windows and attempts per action show ${which} (${Object.entries(series.point.values).map(([k, v]) => `${k} = ${v}`).join(', ')}); timeseries.csv holds every point.`);
    }
    if (has('load_multiple')) charts.push(loadChart(ctx));
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

  if (series && series.extraColumns.length > 0) {
    charts.push(extraSeriesChart(ctx, series.extraColumns.map((name) => ({ name, perSecond: series.perSecond.has(name) }))));
  }

  const faults = faultRows(r, featured, time.divisor);
  const seen = new Set<string>();
  const faultWindows = faults.filter((f) => {
    const key = `${f.kind}|${f.start}|${f.end}`;
    return seen.has(key) ? false : (seen.add(key), true);
  }).map(({ variant: _, ...f }) => f);

  return {
    ctx,
    charts,
    series,
    datasets: {
      [DATASETS.faults]: faults,
      [DATASETS.faultWindows]: faultWindows,
      [DATASETS.amplification]: amplification,
      [DATASETS.sweep]: sweep?.rows ?? [],
    },
    notes,
  };
}

/** Fault windows per variant at the featured point, in the chart time unit. */
function faultRows(r: Results, point: number, divisor: number): Array<{ variant: string; kind: string; start: number; end: number }> {
  return r.variants.flatMap((v) =>
    (atPoint(v, point)?.faults ?? []).map((f) => ({
      variant: v.name,
      kind: f.kind,
      start: Math.max(0, f.startS) / divisor,
      end: Math.min(r.horizonS, f.endS ?? r.horizonS) / divisor,
    })),
  );
}

function amplificationRows(r: Results, point: number): Row[] {
  const rows: Row[] = [];
  for (const v of r.variants) {
    const p = atPoint(v, point);
    if (!p || p.runs === 0) continue;
    const h = p.attemptsHistogram;
    const total = h.reduce((s, x) => s + x, 0);
    if (total === 0) continue;
    h.forEach((count, attempts) => {
      if (count > 0) rows.push({ variant: v.name, stat: 'histogram', attempts, value: count, share: count / total });
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
      const rt = a?.value ?? null;
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
        recovery: rt === null ? 'not recovered' : formatValue('duration', rt),
        fractionText: seedsText(frac, p.runs),
      });
    }
  }
  return { axis: { title: x.title, groups, ordinal: x.ordinal }, rows };
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
