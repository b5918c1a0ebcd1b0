/**
 * The comparison table, as text cells: one row per variant (per variant and sweep point
 * with a sweep), the measures that answer "did it come back, how fast, at what cost" first.
 * The HTML report and summary.md both render these rows, so the two never disagree, and the
 * browser test checks the page against the same formatting of summary.json's numbers.
 */
import { formatDuration } from '../../scenario/units.js';
import { MEASURE_DOCS } from '../../measures/measures.js';
import type { ExpectationOutcome, Interval, Measures, PointResult, Results } from './results.js';

export const fmt = {
  duration: (s: number | null) => (s === null ? '—' : formatDuration(Math.round(s))),
  pct: (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`),
  multiple: (x: number | null) => (x === null ? '—' : `${x.toFixed(2)}x`),
  attempts: (n: number | null, digits = 0) => (n === null ? '—' : n.toFixed(digits)),
  /** A count, or its mean across seeds (one decimal when not whole). */
  count: (x: number | null) => (x === null ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(1)),
  /** Slot-seconds as slot-hours, as the CLI table prints them. */
  slotHours: (s: number | null) => (s === null ? '—' : `${(s / 3600).toFixed(1)} slot-h`),
};

export interface Cell {
  /** The measure this cell shows (data-measure in the HTML). */
  key: string;
  text: string;
  /** The 95% interval across seeds, formatted, when summary.json has one. */
  interval: string | null;
}

export interface Column { key: string; header: string; definition: string }

export const COLUMNS: Column[] = [
  { key: 'recoveryTimeS', header: 'recovery time', definition: MEASURE_DOCS.recoveryTimeS + ' Across seeds: the mean, shown only when every seed recovered.' },
  { key: 'recoveredFraction', header: 'recovered', definition: 'How many seeds recovered before the horizon.' },
  { key: 'relapses', header: 'relapses', definition: MEASURE_DOCS.relapses },
  { key: 'retryWaves', header: 'retry waves', definition: MEASURE_DOCS.retryWaves },
  { key: 'perceivedOutageS', header: 'perceived outage', definition: MEASURE_DOCS.perceivedOutageS },
  { key: 'peakLoadMultiple', header: 'peak load', definition: MEASURE_DOCS.peakLoadMultiple },
  { key: 'peakRetryShare', header: 'peak retry share', definition: MEASURE_DOCS.peakRetryShare },
  { key: 'retryShareAtPeak', header: 'retries at peak', definition: MEASURE_DOCS.retryShareAtPeak },
  { key: 'attemptsPerAction', header: 'attempts per action (mean / p99 / max)', definition: MEASURE_DOCS.attemptsPerAction },
  { key: 'successRatio', header: 'success', definition: MEASURE_DOCS.successRatio },
  { key: 'originalSuccessAfterFault', header: 'new users served', definition: MEASURE_DOCS.originalSuccessAfterFault },
  { key: 'wastedWorkS', header: 'wasted work (share)', definition: `${MEASURE_DOCS.wastedWorkS} In parentheses: ${MEASURE_DOCS.wastedWorkShare}` },
];

export interface ComparisonRow {
  variant: string;
  /** "param = value, …" with a sweep; null otherwise. */
  point: string | null;
  description: string | null;
  cells: Cell[];
  expectations: ExpectationOutcome[];
}

function range(i: Interval | undefined, f: (x: number) => string): string | null {
  return i ? `${f(i.lo)}–${f(i.hi)}` : null;
}

export function recoveryText(m: Measures): string {
  if (m.recoveryTimeS !== null) return fmt.duration(m.recoveryTimeS);
  return m.runs === 0 ? 'no runs' : 'not recovered';
}

export function recoveredText(m: Measures): string {
  return seedsRecoveredText(m.recoveredFraction ?? (m.recovered === null ? null : m.recovered ? 1 : 0), m.runs);
}

/** "yes"/"no" for one run, "2 of 3 seeds" for several, "—" when unknown. The table and the ranking share it. */
export function seedsRecoveredText(fraction: number | null, runs: number | null): string {
  if (fraction === null) return '—';
  const n = runs ?? 1;
  if (n <= 1) return fraction >= 1 ? 'yes' : 'no';
  return `${Math.round(fraction * n)} of ${n} seeds`;
}

export function cellsOf(m: Measures): Cell[] {
  const iv = m.intervals;
  const a = m.attemptsPerAction;
  const d = (x: number) => formatDuration(Math.round(x));
  return [
    { key: 'recoveryTimeS', text: recoveryText(m), interval: m.recoveryTimeS === null ? null : range(iv.recoveryTimeS, d) },
    { key: 'recoveredFraction', text: recoveredText(m), interval: null },
    { key: 'relapses', text: fmt.count(m.relapses), interval: range(iv.relapses, (x) => fmt.count(Number(x.toFixed(1)))) },
    { key: 'retryWaves', text: fmt.count(m.retryWaves), interval: range(iv.retryWaves, (x) => fmt.count(Number(x.toFixed(1)))) },
    { key: 'perceivedOutageS', text: fmt.duration(m.perceivedOutageS), interval: range(iv.perceivedOutageS, d) },
    { key: 'peakLoadMultiple', text: fmt.multiple(m.peakLoadMultiple), interval: range(iv.peakLoadMultiple, fmt.multiple) },
    { key: 'peakRetryShare', text: fmt.pct(m.peakRetryShare), interval: range(iv.peakRetryShare, fmt.pct) },
    { key: 'retryShareAtPeak', text: fmt.pct(m.retryShareAtPeak), interval: range(iv.retryShareAtPeak, fmt.pct) },
    {
      key: 'attemptsPerAction',
      text: `${fmt.attempts(a.mean, 2)} / ${fmt.attempts(a.p99)} / ${fmt.attempts(a.max)}`,
      interval: range(iv.attemptsPerActionMean ?? iv.attemptsPerAction, (x) => x.toFixed(2)),
    },
    { key: 'successRatio', text: fmt.pct(m.successRatio), interval: range(iv.successRatio, fmt.pct) },
    { key: 'originalSuccessAfterFault', text: fmt.pct(m.originalSuccessAfterFault), interval: range(iv.originalSuccessAfterFault, fmt.pct) },
    { key: 'wastedWorkS', text: `${fmt.slotHours(m.wastedWorkS)} (${fmt.pct(m.wastedWorkShare)})`, interval: range(iv.wastedWorkS, fmt.slotHours) },
  ];
}

export function pointLabel(p: PointResult): string | null {
  const e = Object.entries(p.values);
  return e.length === 0 ? null : e.map(([k, v]) => `${k} = ${v}`).join(', ');
}

function appliesTo(e: ExpectationOutcome, variant: string, p: PointResult): boolean {
  if (e.variant !== variant) return false;
  return Object.entries(e.at).every(([k, v]) => String(p.values[k]) === String(v));
}

export function comparisonRows(r: Results): ComparisonRow[] {
  return r.variants.flatMap((v) =>
    v.points.map((p) => ({
      variant: v.name,
      point: pointLabel(p),
      description: v.description,
      cells: cellsOf(p.measures),
      expectations: (r.expectations ?? []).filter((e) => appliesTo(e, v.name, p)),
    })),
  );
}

/** An expectation's text without the "variant: " prefix the table's row already shows. */
export function expectationText(e: ExpectationOutcome): string {
  const name = e.variant && e.name.startsWith(`${e.variant}: `) ? e.name.slice(e.variant.length + 2) : e.name;
  return e.actual ? `${name} (${e.actual})` : name;
}
