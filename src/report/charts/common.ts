/**
 * What every chart of the report shares, so the charts agree with each other: one colour
 * per variant (a fixed scale domain, the variants in scenario order), one time axis (same
 * unit and domain everywhere, so charts line up when read top to bottom), and the shaded
 * fault windows. Chart specs are pure functions of a ChartContext; their data come from
 * named datasets the page attaches once (see DATASETS), so no chart copies the data.
 */
import type { TopLevelSpec } from 'vega-lite';

/** Named datasets the specs refer to, filled by the page (and by tests) at render time. */
export const DATASETS = {
  /** One row per (variant, plotted point): `variant`, `t` (time unit), prepared series columns. */
  series: 'series',
  /** Fault windows per variant: `variant`, `kind`, `start`, `end` (time unit). */
  faults: 'faults',
  /** The distinct fault windows over all variants, for charts that overlay variants. */
  faultWindows: 'faultWindows',
  /** Operator actions that took effect: `variant`, `name`, `kind`, `t` (time unit), `when`, `why`, `seeds` (see actions-view.ts). */
  actions: 'actions',
  /** Attempts per user action: `variant`, `stat`, `value` (and `attempts`, `share` for histograms). */
  amplification: 'amplification',
  /** Recovery time by sweep value: see recovery-curve.ts. */
  sweep: 'sweep',
  /** Variant x sweep point x measure cells: see heatmap.ts. */
  heatmap: 'heatmap',
  /** Per variant and population at the compared point: see populations.ts. */
  populations: 'populations',
  /** The cliff search's tried values and tipping points: see tipping-points.ts. */
  search: 'search',
  searchTipping: 'searchTipping',
  /** A real incident's observed series: `name`, `column` (the simulated column it stands beside), `t` (time unit), `value` (see observed.ts). */
  observed: 'observed',
} as const;

export interface ChartContext {
  variants: string[];
  /** Smallest positive and largest value of a series column over every point drawn: fixed axes that do not jump between sweep points. */
  extents?: Record<string, { min: number; max: number }>;
  /** Colour of each variant, same order as `variants`. */
  colors: string[];
  time: { unit: string; divisor: number; domain: [number, number] };
  /** Plot width in pixels. */
  width: number;
  /** The simulated columns an observed series stands beside (the scenario's observed: block); none without one. */
  observed?: string[];
}

export interface Chart {
  id: string;
  title: string;
  /** How to read the chart, one or two sentences. */
  caption: string;
  /** Dataset names the spec reads. */
  datasets: string[];
  spec: TopLevelSpec;
}

type Json = Record<string, unknown>;

/**
 * How lines treat a bucket with no value (no answer, no ended action): break the line there.
 * Joining the neighbours would draw a trend through a stretch where nothing was measured.
 */
export const LINE_GAPS = 'break-paths-filter-domains';

/**
 * One colour per variant, the same in every chart and table swatch: the Okabe–Ito palette,
 * told apart with the common colour-vision deficiencies, without its yellow (unreadable on
 * white), then Paul Tol's wine, teal, indigo, olive, purple and green ("muted" scheme) for the
 * 8th to the 13th variant; after that hues repeat. The flagship has 10 variants: with 9
 * colours its 10th took the baseline's blue.
 */
export const PALETTE = [
  '#0072B2', '#E69F00', '#009E73', '#D55E00', '#56B4E9', '#CC79A7', '#000000',
  '#882255', '#44AA99', '#332288', '#999933', '#AA4499', '#117733',
];

export function variantColors(n: number): string[] {
  return Array.from({ length: n }, (_, i) => PALETTE[i % PALETTE.length]);
}

/** The time unit that keeps axis numbers short: seconds, minutes or hours. */
export function timeScale(horizonS: number): ChartContext['time'] {
  const [unit, divisor] = horizonS <= 600 ? ['s', 1] : horizonS <= 6 * 3600 ? ['min', 60] : ['h', 3600];
  return { unit, divisor, domain: [0, horizonS / divisor] };
}

/** A colour between `hex` and white (t = 0: hex, t = 1: white), for a lighter shade of a variant's colour. */
export function tint(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * t).toString(16).padStart(2, '0');
  return `#${mix((n >> 16) & 255)}${mix((n >> 8) & 255)}${mix(n & 255)}`;
}

export function colorOf(ctx: ChartContext, variant: string): string {
  return ctx.colors[ctx.variants.indexOf(variant)] ?? '#888888';
}

/** Colour by variant. Every layer uses the same legend settings, so vega-lite merges them into one legend. */
export function variantColor(ctx: ChartContext): Json {
  return {
    field: 'variant',
    type: 'nominal',
    title: 'variant',
    scale: { domain: ctx.variants, range: ctx.colors },
    legend: { orient: 'top', direction: 'horizontal', title: null, symbolType: 'stroke', symbolStrokeWidth: 3 },
  };
}

/** The name of the legend-bound selection of a variant (`view.signal('pick')` in the page). */
export const PICK = 'pick';

/**
 * A click on a legend entry isolates that variant in the chart (shift-click adds another):
 * vega-lite's point selection bound to the legend. A legend binding turns off vega-lite's
 * own "clear" events (and setting them breaks legend clicks in concatenated views), so the
 * page script empties the selection's store on a double-click (page-script.ts). Put it on
 * the first view that carries the colour legend; every layer then fades with `picked`.
 */
export function pickParam(): Json {
  return { name: PICK, select: { type: 'point', fields: ['variant'] }, bind: 'legend' };
}

/** Opacity that keeps the picked variants (all when none is picked) at `shown` and hides the others. */
export function picked(shown = 1): Json {
  return { condition: { param: PICK, value: shown, empty: true }, value: 0 };
}

/**
 * Zoom on a time axis: shift + mouse wheel zooms, dragging pans, double-click resets
 * (a plain wheel keeps scrolling the page). Put it on one layer of a time-series view.
 */
export function zoomParam(name = 'zoom'): Json {
  return { name, select: { type: 'interval', encodings: ['x'], zoom: 'wheel![event.shiftKey]' }, bind: 'scales' };
}

/** A log-like axis with ticks at whole powers of ten from `lo` up to one at or above the data's top, so no value sits above the last tick. */
export function decadeTicks(minPositive: number, max: number, withZero: boolean): { domain: [number, number]; values: number[] } {
  // No positive value anywhere (a column that stayed 0, or no data at all): one decade, so the
  // axis still draws; without this the bounds are infinite and the tick loop never ends.
  if (!Number.isFinite(minPositive) || !Number.isFinite(max) || max <= 0) return withZero ? { domain: [0, 1], values: [0, 1] } : { domain: [1, 10], values: [1, 10] };
  const lo = withZero ? 0 : 10 ** Math.floor(Math.log10(Math.max(minPositive, 1e-9)));
  const top = 10 ** Math.ceil(Math.log10(Math.max(max, withZero ? 1 : lo * 10)));
  const values: number[] = withZero ? [0] : [];
  for (let x = withZero ? 1 : lo; x <= top * 1.0001; x *= 10) values.push(Number(x.toPrecision(1)));
  return { domain: [lo, top], values };
}

export function timeX(ctx: ChartContext, axis = true): Json {
  return {
    field: 't',
    type: 'quantitative',
    title: `time (${ctx.time.unit})`,
    scale: { domain: ctx.time.domain, nice: false, zero: true },
    ...(axis ? {} : { axis: { title: null, labels: true } }),
  };
}

/** Grey bands where a fault is active; `variant` limits them to that variant's windows. */
export function faultLayer(ctx: ChartContext, variant?: string): Json {
  return {
    data: { name: variant === undefined ? DATASETS.faultWindows : DATASETS.faults },
    ...(variant === undefined ? {} : { transform: [{ filter: { field: 'variant', equal: variant } }] }),
    mark: { type: 'rect', color: '#7f7f7f', opacity: 0.16 },
    encoding: {
      x: { field: 'start', type: 'quantitative', scale: { domain: ctx.time.domain, nice: false } },
      x2: { field: 'end' },
      tooltip: [
        { field: 'kind', title: 'fault' },
        { field: 'start', title: `from (${ctx.time.unit})`, format: '.3~f' },
        { field: 'end', title: `to (${ctx.time.unit})`, format: '.3~f' },
      ],
    },
  };
}

/**
 * A dashed vertical rule, in the variant's colour, where an operator action or an autoscaler
 * decision took effect (the earliest over the seeds); its tooltip says what and why.
 */
export function actionLayer(ctx: ChartContext): Json {
  return {
    data: { name: DATASETS.actions },
    mark: { type: 'rule', strokeDash: [6, 3], strokeWidth: 1.5 },
    encoding: {
      x: { field: 't', type: 'quantitative', scale: { domain: ctx.time.domain, nice: false } },
      color: variantColor(ctx),
      opacity: picked(0.9),
      tooltip: [
        { field: 'variant' },
        { field: 'name', title: 'action' },
        { field: 'kind', title: 'effect' },
        { field: 'when', title: 'at' },
        { field: 'why', title: 'why' },
        { field: 'seeds', title: 'seeds' },
      ],
    },
  };
}

/** Keeps one variant's rows of the `series` dataset. */
export function onlyVariant(variant: string): Json {
  return { filter: { field: 'variant', equal: variant } };
}

/** Wraps a spec body as a top-level vega-lite spec with the report's shared settings. */
export function topLevel(body: Json): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: {
      view: { stroke: '#ddd' },
      axis: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal', grid: true, gridColor: '#eee' },
      legend: { labelFontSize: 11, labelLimit: 260, symbolOpacity: 1 },
      header: { labelFontSize: 12, labelFontWeight: 'bold', labelAnchor: 'start' },
      title: { fontSize: 12, anchor: 'start', fontWeight: 'bold' },
      concat: { spacing: 14 },
    },
    ...body,
  } as unknown as TopLevelSpec;
}

export interface PanelResolve {
  /** Shared: panels compare directly; independent: each panel uses its own height. */
  y: 'shared' | 'independent';
  /** Independent when each panel colours by its own shades of the variant's colour. */
  color: 'shared' | 'independent';
}

/**
 * One small panel per variant, stacked on a shared time axis and titled with the variant's
 * name in its colour (used where a panel colours by something else, e.g. failure cause).
 */
export function perVariant(ctx: ChartContext, height: number, panel: (variant: string, i: number) => Json, resolve: PanelResolve): Json {
  return {
    vconcat: ctx.variants.map((v, i) => ({
      title: { text: v, color: colorOf(ctx, v) },
      width: ctx.width,
      height,
      ...panel(v, i),
    })),
    resolve: { scale: { x: 'shared', y: resolve.y, color: resolve.color }, legend: { color: resolve.color } },
  };
}
