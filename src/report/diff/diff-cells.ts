/**
 * The texts a diff is shown with, shared by the terminal and the pull-request comment: a
 * measure's value at one side, its change with the interval, the verdict's lines. One
 * formatter per concept, so the terminal and the comment never disagree on a number.
 */
import { formatValue, seedsText } from '../../measures/format.js';
import type { MeasureChange, PointDiff, ResultsDiff } from '../../results/diff/results-diff.js';
import { pointLabel } from '../cells.js';

/** The measures a verdict is about, in this order: the ranking's first objectives. */
export const VERDICT_MEASURES = ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'retryWaves', 'successRatio'];

/** Whose results are compared: "retry-storm", or "old-name -> new-name" when the scenario was renamed. */
export function scenarioTitle(diff: ResultsDiff, arrow = '->'): string {
  return diff.base.scenario === diff.head.scenario ? diff.head.scenario : `${diff.base.scenario} ${arrow} ${diff.head.scenario}`;
}

/** A measure's value at one side: "2m36s", "not recovered", "3 of 3 seeds". */
export function sideText(c: MeasureChange, value: number | null, runs: number): string {
  if (c.key === 'recovered' && value !== null) return seedsText(value, runs);
  if (value === null && c.key === 'recoveryTimeS') return 'not recovered';
  return formatValue(c.unit, value);
}

function signed(unit: MeasureChange['unit'], x: number): string {
  const sign = x > 0 ? '+' : x < 0 ? '-' : '±';
  if (unit === 'share') return `${sign}${formatValue('number', Math.abs(x) * 100)} pp`;
  return `${sign}${formatValue(unit, Math.abs(x))}`;
}

/** The change and its 95% interval: "+6m10s (95% CI +5m2s to +7m18s)"; empty when there is no difference of means. */
export function deltaText(c: MeasureChange): string {
  if (c.delta === null || c.lo === null || c.hi === null) return '';
  if (c.delta === 0) return '0';
  const ci = c.lo === c.hi ? 'every seed agrees' : `95% CI ${signed(c.unit, c.lo)} to ${signed(c.unit, c.hi)}`;
  return `${signed(c.unit, c.delta)} (${ci})`;
}

export function whereText(d: { variant: string; values: PointDiff['values'] }): string {
  const at = pointLabel(d.values);
  return at ? `${d.variant} at ${at}` : d.variant;
}

export function verdictWord(c: MeasureChange): string {
  return c.direction === 'same' ? 'within seed noise' : `${c.direction}, beyond seed noise`;
}

/** "client-ceiling at faults[0].duration = 12m: recovery time 2m36s -> not recovered (worse, beyond seed noise)". */
export function changeLine(d: PointDiff, c: MeasureChange, arrow = '->'): string {
  return `${whereText(d)}: ${c.label} ${sideText(c, c.base, d.baseRuns)} ${arrow} ${sideText(c, c.head, d.headRuns)} (${verdictWord(c)})`;
}

/**
 * The changes the verdict reports, most important first: the point the ranking reads before
 * the others, worse before better, then the verdict's measures in their order. Only changes
 * beyond seed noise; a recovery time that is null on one side is reported through it (the
 * fraction recovered says the same, once).
 */
export function verdictChanges(diff: ResultsDiff): Array<{ point: PointDiff; change: MeasureChange }> {
  const out: Array<{ point: PointDiff; change: MeasureChange; order: number[] }> = [];
  const compared = (d: PointDiff) => (diff.comparedAt && JSON.stringify(d.values) === JSON.stringify(diff.comparedAt) ? 0 : 1);
  for (const d of diff.points) {
    const flagged = d.changes.filter((c) => c.beyondNoise && VERDICT_MEASURES.includes(c.key));
    const skipRecovered = flagged.some((c) => c.key === 'recoveryTimeS') ;
    for (const c of flagged) {
      if (c.key === 'recovered' && skipRecovered) continue;
      out.push({ point: d, change: c, order: [compared(d), c.direction === 'worse' ? 0 : c.direction === 'better' ? 2 : 1, VERDICT_MEASURES.indexOf(c.key)] });
    }
  }
  out.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2]);
  return out.map(({ point, change }) => ({ point, change }));
}

/** Every change beyond seed noise, at every point. */
export function flaggedCount(diff: ResultsDiff): number {
  return diff.points.reduce((n, d) => n + d.changes.filter((c) => c.beyondNoise).length, 0);
}

export function seedsSummary(diff: ResultsDiff): string {
  const s = (x: ResultsDiff['base']) => `${x.seeds.length} seed(s)${x.partial ? ', partial' : ''}`;
  return `base ${s(diff.base)}, head ${s(diff.head)}`;
}

/**
 * The headline's words when no run of the base has a counterpart in the head (no variant in
 * common at a common sweep point): "no change beyond seed noise" would claim a comparison
 * that was never made. Undefined when something was compared.
 */
export function nothingCompared(diff: ResultsDiff): string | undefined {
  if (diff.points.length > 0) return undefined;
  return 'nothing to compare: the base and the head have no variant in common at a common sweep point (see what was added and removed below)';
}

/** A sweep point's label in the added/removed lists: its values, or what an unswept run is. */
export function pointListLabel(values: Parameters<typeof pointLabel>[0]): string {
  return pointLabel(values) || 'the unswept run';
}

/**
 * Said under the headline when a side ran one seed: Welch's test needs two values a side, so
 * no change can be flagged, and "no change beyond seed noise" alone read as a clean bill (the
 * reason was only in --json's `why`).
 */
export function oneSeedNote(diff: ResultsDiff): string | undefined {
  const one = [diff.base.seeds.length === 1 ? 'the base' : '', diff.head.seeds.length === 1 ? 'the head' : ''].filter(Boolean);
  if (one.length === 0 || diff.points.length === 0) return undefined;
  return `${one.join(' and ')} ran one seed, so no change can be told from seed noise and none is flagged: run at least 2 seeds a side (--seeds) to compare`;
}
