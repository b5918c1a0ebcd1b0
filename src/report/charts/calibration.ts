/**
 * The curves of a calibration (calibration.html): one chart per observed series, the way a
 * reader checks a fit by eye. The observed series is drawn as the report draws an observed
 * overlay (black, dashed, small points: observed.ts), the start's simulated mean in grey, the
 * fitted mean in the first variant colour with the fitted runs' spread (mean ± 2 standard
 * deviations of one run) as a light band of the same colour, and the stretches the fit misses
 * shaded. A partial calibration has no spread, so no band. Each spec carries its own data
 * (top-level `datasets`): the page embeds each chart once and never swaps data.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CalibrationResults } from '../../results/calibration.js';
import { formatDuration } from '../../scenario/units.js';
import { LINE_GAPS, PALETTE, topLevel } from './common.js';

type Json = Record<string, unknown>;
type SeriesFit = CalibrationResults['series'][number];

/** The fitted mean's colour (the report's first variant colour); its band is the same, light. */
export const FITTED_COLOR = PALETTE[0];
/** The start's mean: grey, a reference the eye reads past. */
export const START_COLOR = '#8c8c8c';
/** The missed stretches: the report's warning hue, faint, so the curves stay readable over it. */
const MISS_COLOR = '#D55E00';

/** The legend's entries, in order, and how each line is drawn. */
export const CURVES = ['observed', 'start', 'fitted'] as const;

/** The most points a chart draws: a day of per-second intervals would weigh megabytes in the page (as the report's observed overlay, plan.ts). */
export const CALIBRATION_POINTS = 2000;

const WIDTH = 760;
const HEIGHT = 240;

/**
 * One plotted point: `t` the middle of its interval in minutes of the run (a value is the
 * interval's mean, and a missed stretch then shades exactly its points), `at` the interval as
 * text, the curves' values in the series' unit.
 */
export interface CurveRow { t: number; at: string; observed: number | null; start: number | null; fitted: number | null; low?: number | null; high?: number | null }
export interface MissRow { from: number; to: number; what: string }

export interface CalibrationChart {
  id: string;
  /** The series' name, as the scenario's observed: block names it. */
  series: string;
  title: string;
  caption: string;
  /** Consecutive intervals averaged into one plotted point (1: every interval drawn). */
  factor: number;
  spec: TopLevelSpec;
}

/** The curve's intervals are `times` apart at the least (an interval with no observed value is left out of the fit, so times may skip). */
function stepOf(times: readonly number[]): number {
  let step = Infinity;
  for (let i = 1; i < times.length; i++) if (times[i] > times[i - 1]) step = Math.min(step, times[i] - times[i - 1]);
  return Number.isFinite(step) ? step : 60;
}

const mean = (xs: ReadonlyArray<number | null | undefined>): number | null => {
  const ok = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : null;
};

/**
 * The plotted rows: every interval, or runs of `factor` consecutive intervals averaged when
 * there are more than CALIBRATION_POINTS. The band is clipped at 0 (and at 1 for a ratio):
 * mean ± 2 sd can cross a bound no run can, and drawing it there would say a run could.
 */
export function curveRows(s: SeriesFit, factor = Math.max(1, Math.ceil(s.curve.times.length / CALIBRATION_POINTS))): CurveRow[] {
  const c = s.curve;
  const step = stepOf(c.times);
  const band = c.low.length === c.times.length && c.times.length > 0;
  const top = s.unit === 'ratio' ? 1 : Infinity;
  const rows: CurveRow[] = [];
  for (let i = 0; i < c.times.length; i += factor) {
    const slice = <T>(xs: readonly T[]) => xs.slice(i, i + factor);
    const from = c.times[i], to = c.times[Math.min(i + factor, c.times.length) - 1] + step;
    const row: CurveRow = { t: (from + to) / 2 / 60, at: `${formatDuration(from)} to ${formatDuration(to)}`, observed: mean(slice(c.observed)), start: mean(slice(c.start)), fitted: mean(slice(c.fitted)) };
    if (band) {
      const lo = mean(slice(c.low)), hi = mean(slice(c.high));
      row.low = lo === null ? null : Math.min(top, Math.max(0, lo));
      row.high = hi === null ? null : Math.min(top, Math.max(0, hi));
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The time axis, in minutes of the run: plain minutes up to 3 hours, beyond that labelled
 * h:mm at whole quarter, half or whole hours (minute numbers in the hundreds read badly).
 */
function timeAxis(domain: [number, number]): Json {
  const span = domain[1] - domain[0];
  if (span <= 180) return { field: 't', type: 'quantitative', title: 'time of the run (min)', scale: { domain, nice: false, zero: false } };
  const tick = [15, 30, 60, 120, 180, 360, 720].find((m) => span / m <= 10) ?? 1440;
  const values: number[] = [];
  for (let m = Math.ceil(domain[0] / tick) * tick; m <= domain[1]; m += tick) values.push(m);
  return {
    field: 't',
    type: 'quantitative',
    title: 'time of the run (h:mm)',
    scale: { domain, nice: false, zero: false },
    axis: { values, labelExpr: "floor(datum.value / 60) + ':' + (datum.value % 60 < 10 ? '0' : '') + (datum.value % 60)" },
  };
}

/** The chart of one observed series against the start's and the fitted world's means. */
export function calibrationChart(r: CalibrationResults, s: SeriesFit, index: number): CalibrationChart {
  const times = s.curve.times;
  const step = stepOf(times);
  const factor = Math.max(1, Math.ceil(times.length / CALIBRATION_POINTS));
  const rows = curveRows(s, factor);
  const band = rows.length > 0 && rows[0].low !== undefined;
  const domain: [number, number] = times.length ? [times[0] / 60, (times[times.length - 1] + step) / 60] : [0, 1];
  const misses: MissRow[] = s.misses.map((m) => ({ from: m.fromS / 60, to: m.toS / 60, what: `${formatDuration(m.fromS)} to ${formatDuration(m.toS)}: observed ${m.observedAbove ? 'above' : 'below'} every fitted run` }));
  const x = timeAxis(domain);
  const yTitle = `${s.column} (${s.unit})`;
  // One legend, by colour, its observed entry dashed as the line is (a strokeDash legend of
  // its own would list the three curves again: constant (datum) encodings do not merge).
  const fittedLabel = band ? 'fitted: mean, band ± 2 sd' : 'fitted: mean';
  const legend = { orient: 'top', direction: 'horizontal', title: null, symbolType: 'stroke', symbolStrokeWidth: 2, labelExpr: `datum.value === 'fitted' ? '${fittedLabel}' : datum.value === 'start' ? 'start: mean' : datum.value`, encode: { symbols: { update: { strokeDash: { signal: "datum.value === 'observed' ? [4, 3] : []" } } } } };
  const curveColor = { scale: { domain: [...CURVES], range: ['black', START_COLOR, FITTED_COLOR] }, legend };
  // The observed line's dash is the one the report draws (observed.ts); the means are solid.
  const curveDash = { scale: { domain: [...CURVES], range: [[4, 3], [1, 0], [1, 0]] }, legend: null };
  const tooltip = (field: string, title: string) => [{ field: 'at', title: 'interval' }, { field, title: `${title} (${s.unit})`, format: ',.4~g' }];
  const line = (field: (typeof CURVES)[number], mark: Json, title: string): Json => ({
    name: field,
    mark: { type: 'line', invalid: LINE_GAPS, ...mark },
    encoding: {
      x,
      y: { field, type: 'quantitative', title: yTitle },
      color: { datum: field, ...curveColor },
      strokeDash: { datum: field, ...curveDash },
      tooltip: tooltip(field, title),
    },
  });
  const layers: Json[] = [];
  if (misses.length) {
    layers.push({
      name: 'misses',
      data: { name: 'misses' },
      mark: { type: 'rect', color: MISS_COLOR, opacity: 0.12 },
      encoding: {
        x: { field: 'from', type: 'quantitative', scale: { domain, nice: false, zero: false } },
        x2: { field: 'to' },
        tooltip: [{ field: 'what', title: 'the fit misses' }],
      },
    });
  }
  if (band) {
    layers.push({
      name: 'band',
      mark: { type: 'area', color: FITTED_COLOR, opacity: 0.16, invalid: LINE_GAPS },
      encoding: {
        x,
        y: { field: 'low', type: 'quantitative', title: yTitle },
        y2: { field: 'high' },
        tooltip: [{ field: 'at', title: 'interval' }, { field: 'low', title: `fitted − 2 sd (${s.unit})`, format: ',.4~g' }, { field: 'high', title: `fitted + 2 sd (${s.unit})`, format: ',.4~g' }],
      },
    });
  }
  layers.push(
    line('start', { strokeWidth: 1.6 }, 'start, mean'),
    line('fitted', { strokeWidth: 2 }, 'fitted, mean'),
    line('observed', { strokeWidth: 1.4, point: { filled: true, size: 9, color: 'black' } }, 'observed'),
  );
  const seeds = `${r.seeds} seed${r.seeds === 1 ? '' : 's'}`;
  const caption = [
    `Black, dashed: the observed ${s.name}. Grey: the mean of the start's ${seeds}; blue: the fitted world's mean over the same seeds`,
    band ? `, with the band a fitted run falls in (mean ± 2 standard deviations of one run, from ${r.intervalSeeds} runs on seeds of their own)` : ' (no band: the calibration was stopped before the fitted runs\' spread was measured)',
    '.',
    misses.length ? ` Shaded: the ${misses.length === 1 ? 'stretch' : `${misses.length} stretches`} where the observed series lies beyond 3 standard deviations of every fitted run.` : '',
    factor > 1 ? ` ${factor} consecutive intervals are averaged into each plotted point (${times.length} intervals; calibration.json has each).` : '',
    ` Values in the unit of the simulated column it is compared with (${s.unit}).`,
  ].join('');
  return {
    id: `series-${index}`,
    series: s.name,
    title: `${s.name}: ${s.column}`,
    caption,
    factor,
    spec: topLevel({
      width: WIDTH,
      height: HEIGHT,
      datasets: { curve: rows, misses },
      data: { name: 'curve' },
      layer: layers,
    }),
  };
}

export function calibrationCharts(r: CalibrationResults): CalibrationChart[] {
  return r.series.map((s, i) => calibrationChart(r, s, i));
}
