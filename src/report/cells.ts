/**
 * The words and numbers every writer shows for a result, made once: a measure's value and
 * interval in its unit, "2 of 3 seeds", "not recovered", a sweep point's label, the point the
 * charts and tables feature. The terminal table, summary.md and report.html all build their
 * cells here, so they never disagree, and the browser test checks the page against the same
 * formatting of summary.json's numbers.
 */
import { formatInterval, formatValue, seedsText } from '../measures/format.js';
import type { AggregateResult, MeasureInfo, PointResult, Results, VariantResult } from '../results/results.js';

export interface Cell {
  /** The measure this cell shows (data-measure in the HTML). */
  key: string;
  text: string;
  /** The 95% interval across seeds, formatted, when there is one. */
  interval: string | null;
}

export { seedsText };

/** A measure's value at a point, in words. */
export function valueText(m: MeasureInfo, a: AggregateResult | undefined, runs: number): string {
  if (runs === 0) return 'no runs';
  const v = a?.value ?? null;
  if (m.aggregate === 'fraction') return seedsText(v, runs);
  if (v === null && m.key === 'recoveryTimeS') return 'not recovered';
  return formatValue(m.unit, v);
}

export function cellOf(m: MeasureInfo, p: PointResult): Cell {
  const a = p.measures[m.key];
  const interval = m.aggregate === 'fraction' || a?.value === null ? null : formatInterval(m.unit, a?.lo ?? null, a?.hi ?? null);
  return { key: m.key, text: valueText(m, a, p.runs), interval };
}

/** "faults[0].duration = 12m, load = 2"; null without a sweep. */
export function pointLabel(values: Record<string, string | number>): string | null {
  const e = Object.entries(values);
  return e.length === 0 ? null : e.map(([k, v]) => `${k} = ${v}`).join(', ');
}

/** Was this point healthy before the first trigger in every seed? */
export function healthyBefore(p: PointResult): boolean {
  return (p.measures.healthyBeforeTrigger?.value ?? 1) >= 1;
}

export const UNHEALTHY_TEXT = 'unhealthy before the fault';

/** How a variant below a floor is flagged (src/experiment/ranking.ts: it sacrificed a population). */
export const FLOOR_TEXT = 'below a floor';

/**
 * The comparison's columns: the headline measures, in registry order; a count (dead
 * letters, give-ups) only when some variant has one, so a table never carries a column of
 * zeros; the partners' measures only when some variant has a value (a scenario has
 * partners), so a scenario without any never carries their columns of dashes.
 */
export function headlineMeasures(r: Results): MeasureInfo[] {
  const points = r.variants.flatMap((v) => v.points);
  const some = (m: MeasureInfo, has: (x: number | null) => boolean) => points.some((p) => has(p.measures[m.key]?.value ?? null));
  return r.measures.filter(
    (m) => m.headline && (m.unit !== 'count' || some(m, (x) => (x ?? 0) !== 0)) && (m.scope !== 'partners' || some(m, (x) => x !== null)),
  );
}

/**
 * The sweep point the single-point views show (time series, fault windows, attempts per
 * action, per-population outcomes): the one the ranking reads when `compare.at` names one, so
 * they show the story the verdict is about; otherwise the first point with runs.
 */
export function featuredPointIndex(r: Results): number {
  const ranked = r.ranking?.at && r.ranking.points.length === 1 ? r.ranking.points[0].point : undefined;
  if (ranked !== undefined) return ranked;
  return r.variants.flatMap((v) => v.points).find((p) => p.runs > 0)?.point ?? 0;
}

/** A variant's result at a point (undefined when it has none there). */
export function atPoint(v: VariantResult, index: number): PointResult | undefined {
  return v.points.find((p) => p.point === index);
}

/**
 * A ranking objective's declaration by key: a measure's, or for a per-population objective
 * ("successRatio@signups", src/experiment/ranking.ts) its measure's, labelled with the
 * population ("signups success"). Undefined for a key the results do not declare.
 */
export function objectiveInfo(r: Pick<Results, 'measures'>, key: string): MeasureInfo | undefined {
  const at = key.indexOf('@');
  if (at < 0) return r.measures.find((m) => m.key === key);
  const m = r.measures.find((x) => x.key === key.slice(0, at));
  return m && { ...m, key, label: `${key.slice(at + 1)} ${m.label}` };
}

/** When the variant's last fault (or other trigger) ended at the point; null when it had none. */
export function lastTriggerEnd(r: Results, variant: string, point: number): number | null {
  const v = r.variants.find((x) => x.name === variant);
  return v ? atPoint(v, point)?.measures.lastTriggerEndS?.value ?? null : null;
}

/**
 * The variants the verdict is about at a point: those that had a fault, when any did. A
 * control without one "recovers" in 0 s by definition, which answers nothing (the ranking
 * leaves it out of its pick and of the across-sweep summary the same way).
 */
export function contendersAt<E extends { variant: string }>(r: Results, entries: readonly E[], point: number): E[] {
  const faulted = entries.filter((e) => lastTriggerEnd(r, e.variant, point) !== null);
  return faulted.length > 0 ? faulted : [...entries];
}

/** Escapes terminal control characters (ESC, BEL, …) in user text printed to a terminal. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
