/**
 * The ranking (computed by src/experiment/ranking.ts, carried in the Results) as text cells:
 * report.html, summary.md and the browser test all read these, so they never disagree.
 */
import { formatValue } from '../measures/format.js';
import type { RankingRow, Results } from '../results/results.js';
import { FLOOR_TEXT, UNHEALTHY_TEXT, objectiveInfo, seedsText } from './cells.js';

export interface RankingCell {
  /** The entry field this cell shows (data-field in the HTML). */
  key: string;
  text: string;
  /** The number behind the text (data-value in the HTML); null when there is none. */
  value: number | string | null;
}

export interface RankingColumn { key: string; header: string; definition: string }

const label = (r: Results, key: string) => objectiveInfo(r, key)?.label ?? key;
const doc = (r: Results, key: string) => r.measures.find((m) => m.key === key)?.doc ?? '';

/** What "recovers up to" means: a threshold, so a failure at a shorter value caps it ("none" when the shortest fails). */
export function upToDefinition(parameter: string): string {
  return `The longest swept ${parameter} such that every seed recovered at it and at every shorter one swept: a failure at a shorter ${parameter} caps it ("none": not every seed recovered even at the shortest).`;
}

/** How the ranking orders, in one paragraph, from the objectives it used. */
export function rankingNote(r: Results): string {
  const k = r.ranking!;
  const upTo = k.longestRecoveredParameter ? ` "recovers up to": ${upToDefinition(k.longestRecoveredParameter)}` : '';
  const objectives = k.objectives.map((o, i) => `${label(r, o)} (weight ${formatValue('number', k.weights[i] ?? 1)})`).join(', ');
  const seeds = k.points.some((p) => p.pairedSeeds < 2)
    ? ' With one seed, a difference beyond the tolerance counts; nothing is judged against seed noise.'
    : ' Two variants differ on an objective only beyond its tie tolerance and beyond seed noise, comparing them seed by seed (each seed gives every variant the same arrivals).';
  return `Best first: variants healthy before the fault that meet every floor and recover in every seed, then the rest in that order. Among them, a variant at least as good on every objective and better on one always ranks above the other ("Pareto front": no variant beats it so); otherwise the one better on more weight of the objectives ranks first. ◆ marks the Pareto front among them: the variants no other beats so, each a reasonable pick for some weighing of the objectives. Objectives: ${objectives}.${seeds} Variants no objective sets apart share a rank. "decided by" names the first objective on which the variant above is better. Savings are against ${k.baseline}.${upTo}`;
}

export function rankingColumns(r: Results): RankingColumn[] {
  const k = r.ranking!;
  return [
    { key: 'recovered', header: 'recovered', definition: doc(r, 'recovered') },
    { key: 'recoveryTimeS', header: 'recovery time', definition: doc(r, 'recoveryTimeS') },
    { key: 'perceivedOutageS', header: 'perceived outage', definition: doc(r, 'perceivedOutageS') },
    { key: 'outageSavedS', header: `outage saved vs ${k.baseline}`, definition: `The perceived outage of ${k.baseline} minus this variant's, and the share of ${k.baseline}'s outage that is (negative: users saw a longer outage).` },
    { key: 'peakLoadMultiple', header: 'peak load', definition: doc(r, 'peakLoadMultiple') },
    { key: 'wastedWorkShare', header: 'wasted work', definition: doc(r, 'wastedWorkShare') },
    { key: 'attemptsPerAction', header: 'attempts per action', definition: doc(r, 'attemptsPerAction') },
    { key: 'originalSuccessAfterFault', header: 'new users served', definition: doc(r, 'originalSuccessAfterFault') },
    { key: 'retryWaves', header: 'retry waves', definition: doc(r, 'retryWaves') },
    { key: 'decidedBy', header: 'decided by', definition: 'The first objective on which the variant ranked above is better than this one (or the gate it fell below: unhealthy before the fault, a floor, recovery in every seed).' },
    { key: 'front', header: 'Pareto front', definition: 'Whether any variant of its gate is at least as good on every objective and better on one: "yes" when none is (the variant is a reasonable pick for some weighing of the objectives), else the variant that dominates it.' },
    ...(k.longestRecoveredParameter ? [{ key: 'longestRecovered', header: 'recovers up to', definition: upToDefinition(k.longestRecoveredParameter) }] : []),
  ];
}

const signed = (x: number, f: (x: number) => string) => (x < 0 ? `−${f(-x)}` : f(x));

/**
 * "−44m48s (−896.1% of as-is's 5m outage)": the share is of the baseline's perceived outage at
 * the point (`baselineOutageS`), said with its length, not of this variant's.
 */
export function savedText(e: RankingRow, baseline: string, baselineOutageS: number | null = null): string {
  if (e.variant === baseline) return 'baseline';
  if (e.outageSavedS === null) return '—';
  const d = signed(e.outageSavedS, (x) => formatValue('duration', x));
  if (e.outageSavedRatio === null) return d;
  const of = baselineOutageS === null ? `${baseline}'s outage` : `${baseline}'s ${formatValue('duration', baselineOutageS)} outage`;
  return `${d} (${signed(e.outageSavedRatio, (x) => formatValue('share', x))} of ${of})`;
}

/** The words for what put a variant below the one above: a gate's, or an objective's label. */
export function decidedText(r: Results, e: RankingRow): string {
  if (e.decidedBy === null) return e.rank === 1 ? '—' : 'tie';
  if (e.decidedBy === 'healthyBeforeTrigger') return UNHEALTHY_TEXT;
  if (e.decidedBy === 'floors') return FLOOR_TEXT;
  return label(r, e.decidedBy);
}

/**
 * Is the variant on the Pareto front of the variants that pass every gate (healthy before the
 * fault, floors met, recovered in every seed when recovery is an objective)? The report marks it ◆.
 */
export function onFront(e: RankingRow): boolean {
  return e.gate === null && e.dominatedBy.length === 0;
}

/** "yes", or the first variant that dominates it. */
export function frontText(e: RankingRow): string {
  return e.dominatedBy.length === 0 ? 'yes' : `no: ${e.dominatedBy[0]} is as good or better on all`;
}

export function rankingCells(r: Results, e: RankingRow): RankingCell[] {
  const k = r.ranking!;
  const v = (key: string) => e.values[key] ?? null;
  const unit = (key: string) => r.measures.find((m) => m.key === key)?.unit ?? 'number';
  const measure = (key: string): [string, number | null] => [formatValue(unit(key), v(key)), v(key)];
  const baselineOutage = k.points.find((p) => p.entries.includes(e))?.entries.find((x) => x.variant === k.baseline)?.values.perceivedOutageS ?? null;
  const text: Record<string, [string, number | string | null]> = {
    recovered: [e.healthyBefore ? seedsText(v('recovered'), e.runs) : UNHEALTHY_TEXT, v('recovered')],
    recoveryTimeS: [v('recoveryTimeS') === null ? 'not recovered' : formatValue('duration', v('recoveryTimeS')), v('recoveryTimeS')],
    perceivedOutageS: measure('perceivedOutageS'),
    outageSavedS: [savedText(e, k.baseline, baselineOutage), e.outageSavedS],
    peakLoadMultiple: measure('peakLoadMultiple'),
    wastedWorkShare: measure('wastedWorkShare'),
    attemptsPerAction: measure('attemptsPerAction'),
    originalSuccessAfterFault: measure('originalSuccessAfterFault'),
    retryWaves: measure('retryWaves'),
    decidedBy: [decidedText(r, e), e.decidedBy],
    front: [frontText(e), e.front],
    longestRecovered: [e.longestRecovered === undefined || e.longestRecovered === null ? 'none' : String(e.longestRecovered), e.longestRecovered ?? null],
  };
  return rankingColumns(r).map((c) => ({ key: c.key, text: text[c.key][0], value: text[c.key][1] }));
}

/** The columns a glance needs: the outcome and its costs; the rest (waves, new users, recovers up to) are one click away. */
export function compactRankingColumns(r: Results): RankingColumn[] {
  const keep = ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'outageSavedS', 'peakLoadMultiple', 'wastedWorkShare', 'attemptsPerAction', 'decidedBy'];
  return rankingColumns(r).filter((c) => keep.includes(c.key));
}
