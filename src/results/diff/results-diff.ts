/**
 * What changed between two experiments' results (base and head of a pull request): per
 * variant and sweep point, every measure's change with the 95% interval of the change, and
 * whether it is beyond seed noise; the ranking before and after; expectations that changed
 * outcome; variants and sweep points added or removed. A pure function of two Results
 * values, so result folders and freshly run scenarios are compared the same way, and every
 * writer (terminal, JSON, markdown) renders this one value.
 *
 * "Beyond seed noise" (docs/diff.md): a t test on the per-seed values at the 5% level (paired
 * seed by seed when both sides ran the same seeds with a value on each, else Welch's),
 * AND a change larger than the measure's tie tolerance (the ranking's own notion of "the
 * same", read from the one place that defines it, tieTolerance in src/measures/measure.ts:
 * recovery times within 10 s or 5%, shares within a point, a default by unit for a measure
 * that declares none), so a real but negligible change is not flagged to a reviewer. A
 * measure whose null means the worst outcome (recovery time: never recovered) compares how
 * many seeds have no value first.
 */
import { MEASURES } from '../../measures/registry.js';
import { tieLimit, tieTolerance, type Better, type Tie, type Unit } from '../../measures/measure.js';
import { formatValue } from '../../measures/format.js';
import { sameValue } from '../../scenario/sweep.js';
import type { PointResult, Results, RankingResult } from '../results.js';
import { welch } from './welch.js';
import { pairedT } from './paired-t.js';

type Value = string | number;

/** better/worse: beyond seed noise, in the measure's better direction; changed: beyond noise, no direction; same: not beyond noise. */
export type Direction = 'better' | 'worse' | 'changed' | 'same';

export const NOISE_LEVEL = 0.05;

export interface MeasureChange {
  key: string;
  label: string;
  unit: Unit;
  better: Better;
  /** The aggregate values as summary.json holds them (mean, share, fraction of seeds or max). */
  base: number | null;
  head: number | null;
  /** Mean of head's per-seed values minus base's, with its 95% Welch interval; null when either side has seeds without a value. */
  delta: number | null;
  lo: number | null;
  hi: number | null;
  /** Welch's two-sided p value (of the values, or of which seeds have none); null when it cannot be computed. */
  p: number | null;
  beyondNoise: boolean;
  direction: Direction;
  /** How it was decided, in words ("Welch p = 0.003", "within the tie tolerance of 10s or 5%"). */
  why: string;
}

export interface PointDiff {
  variant: string;
  /** The sweep point's values as the head writes them ({} without a sweep). */
  values: Record<string, Value>;
  baseRuns: number;
  headRuns: number;
  changes: MeasureChange[];
}

export interface RankingChange {
  values: Record<string, Value>;
  /** Variants best first, with their rank (tied variants share one). */
  before: Array<{ rank: number; variant: string }>;
  after: Array<{ rank: number; variant: string }>;
  changed: boolean;
}

export interface ExpectationChange {
  name: string;
  /** null: the expectation did not exist (or was not checked) on that side. */
  before: boolean | null;
  after: boolean | null;
  actualBefore: string | null;
  actualAfter: string | null;
}

export interface ResultsDiff {
  base: { scenario: string; seeds: number[]; runs: number; partial: boolean };
  head: { scenario: string; seeds: number[]; runs: number; partial: boolean };
  variantsAdded: string[];
  variantsRemoved: string[];
  /** Sweep points (their values) only one side ran. */
  pointsAdded: Array<Record<string, Value>>;
  pointsRemoved: Array<Record<string, Value>>;
  /** The point the head's ranking reads (`compare.at`), when it names one: the verdict's point. */
  comparedAt: Record<string, Value> | null;
  points: PointDiff[];
  ranking: RankingChange[];
  expectations: ExpectationChange[];
}

function samePoint(a: Record<string, Value>, b: Record<string, Value>): boolean {
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

/** Do both points hold the same seeds, in the same order (so that per-seed lists pair up)? */
function sameSeeds(a: PointResult, b: PointResult): boolean {
  return a.perSeed.length === b.perSeed.length && a.perSeed.every((s, i) => s.seed === b.perSeed[i].seed);
}

function perSeed(p: PointResult, key: string): Array<number | null> {
  return p.perSeed.map((s) => (Object.hasOwn(s.measures, key) ? s.measures[key] : null));
}

/**
 * The measure's tie tolerance at these two values (the means of base's and head's seeds), and
 * in words ("10s or 5%", "1 point"): the registry's declaration, else the default of the
 * measure's unit (a measure this build does not know, from an older summary.json).
 */
function tieOf(info: { key: string; unit: Unit }, a: number, b: number): { limit: number; text: string } {
  const m: { unit: Unit; tie?: Tie } = MEASURES.get(info.key) ?? { unit: info.unit };
  const { absolute, relative } = tieTolerance(m);
  const points = Number((absolute * 100).toPrecision(6));
  const abs = info.unit === 'share' ? `${points} point${points === 1 ? '' : 's'}` : formatValue(info.unit, absolute);
  const parts = [...(absolute > 0 ? [abs] : []), ...(relative > 0 ? [`${Number((relative * 100).toPrecision(6))}%`] : [])];
  return { limit: tieLimit(m, a, b), text: parts.length > 0 ? parts.join(' or ') : 'none' };
}

function directionOf(better: Better, delta: number): Direction {
  if (better === 'none') return 'changed';
  return (delta < 0) === (better === 'lower') ? 'better' : 'worse';
}

const pText = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);

/** One measure's change at one variant and point. */
export function measureChange(info: { key: string; label: string; unit: Unit; better: Better }, base: PointResult, head: PointResult): MeasureChange {
  const b = perSeed(base, info.key), h = perSeed(head, info.key);
  const out = {
    key: info.key, label: info.label, unit: info.unit, better: info.better,
    base: base.measures[info.key]?.value ?? null,
    head: head.measures[info.key]?.value ?? null,
  };
  const none = (why: string, p: number | null = null): MeasureChange => ({ ...out, delta: null, lo: null, hi: null, p, beyondNoise: false, direction: 'same', why });
  if (b.length === 0 || h.length === 0) return none('no runs on one side');
  const bNull = b.filter((x) => x === null).length, hNull = h.filter((x) => x === null).length;
  // A change in how many seeds have a value within noise: said, and the values are still compared.
  let countNote = '';
  if (bNull > 0 || hNull > 0) {
    // Which seeds have a value at all: for recovery time, which seeds recovered.
    if (bNull / b.length === hNull / h.length) {
      if (bNull === b.length) return none('no value on either side');
    } else {
      const test = welch(b.map((x) => (x === null ? 1 : 0)), h.map((x) => (x === null ? 1 : 0)));
      const nullIsWorst = MEASURES.get(info.key)?.nullIsWorst === true;
      const beyond = test !== null && test.p < NOISE_LEVEL;
      const what = `seeds without a value: ${bNull} of ${b.length} -> ${hNull} of ${h.length}`;
      if (beyond) {
        const worse = hNull / h.length > bNull / b.length;
        return { ...out, delta: null, lo: null, hi: null, p: test.p, beyondNoise: true, direction: nullIsWorst ? (worse ? 'worse' : 'better') : 'changed', why: `${what} (Welch ${pText(test.p)})` };
      }
      // One more seed that never recovered must not hide how much slower the others recovered.
      countNote = `${what}, ${test ? `within seed noise (Welch ${pText(test.p)})` : 'one seed on a side: cannot be told from noise'}; the seeds with a value: `;
    }
  }
  const bv = b.filter((x): x is number => x !== null), hv = h.filter((x): x is number => x !== null);
  // The same seeds on both sides, each with a value: compared seed by seed (paired-t.ts).
  const paired = countNote === '' && bv.length === b.length && hv.length === h.length && sameSeeds(base, head);
  const test = paired ? pairedT(bv, hv) : welch(bv, hv);
  const name = paired ? 'paired t' : 'Welch';
  if (!test) return none(`${countNote}one seed on a side: a change cannot be told from noise`);
  const baseMean = bv.reduce((x, y) => x + y, 0) / bv.length;
  const tie = tieOf(info, baseMean, baseMean + test.delta);
  const common = { ...out, delta: test.delta, lo: test.lo, hi: test.hi, p: test.p };
  if (test.delta === 0) return { ...common, beyondNoise: false, direction: 'same', why: `${countNote}no change` };
  if (test.p >= NOISE_LEVEL) return { ...common, beyondNoise: false, direction: 'same', why: `${countNote}within seed noise (${name} ${pText(test.p)})` };
  // Beyond noise only when the change exceeds the tolerance (by more than float rounding: a tolerance of 0 is exact).
  if (Math.abs(test.delta) <= tie.limit + 1e-12) return { ...common, beyondNoise: false, direction: 'same', why: `${countNote}within the tie tolerance (${tie.text}), ${name} ${pText(test.p)}` };
  const agree = paired ? 'every seed moved by the same amount' : 'every seed agrees on each side';
  return { ...common, beyondNoise: true, direction: directionOf(info.better, test.delta), why: `${countNote}${test.df === Infinity ? agree : `${name} ${pText(test.p)}`}` };
}

function rankingPoints(k: RankingResult | null): RankingResult['points'] {
  return k?.points ?? [];
}

export function diffResults(base: Results, head: Results): ResultsDiff {
  const baseNames = base.variants.map((v) => v.name), headNames = head.variants.map((v) => v.name);
  const allPoints = (r: Results) => r.sweep?.points.map((p) => p.values) ?? [{}];
  const basePoints = allPoints(base), headPoints = allPoints(head);
  const measures = head.measures.filter((m) => base.measures.some((x) => x.key === m.key));

  const points: PointDiff[] = [];
  for (const hv of head.variants) {
    const bv = base.variants.find((v) => v.name === hv.name);
    if (!bv) continue;
    for (const hp of hv.points) {
      const bp = bv.points.find((p) => samePoint(p.values, hp.values));
      if (!bp || bp.runs === 0 || hp.runs === 0) continue;
      points.push({ variant: hv.name, values: hp.values, baseRuns: bp.runs, headRuns: hp.runs, changes: measures.map((m) => measureChange(m, bp, hp)) });
    }
  }

  const ranking: RankingChange[] = [];
  for (const hp of rankingPoints(head.ranking)) {
    const bp = rankingPoints(base.ranking).find((p) => samePoint(p.values, hp.values));
    const order = (es: RankingResult['points'][number]['entries']) => es.map((e) => ({ rank: e.rank, variant: e.variant }));
    const before = bp ? order(bp.entries) : [], after = order(hp.entries);
    ranking.push({ values: hp.values, before, after, changed: JSON.stringify(before) !== JSON.stringify(after) });
  }

  const names = [...new Set([...base.expectations.map((e) => e.name), ...head.expectations.map((e) => e.name)])];
  const expectations = names.map((name) => {
    const b = base.expectations.find((e) => e.name === name), h = head.expectations.find((e) => e.name === name);
    return { name, before: b?.passed ?? null, after: h?.passed ?? null, actualBefore: b?.actual ?? null, actualAfter: h?.actual ?? null };
  });

  const side = (r: Results) => ({ scenario: r.scenario, seeds: r.seeds, runs: r.runsFinished, partial: r.partial });
  return {
    base: side(base),
    head: side(head),
    variantsAdded: headNames.filter((n) => !baseNames.includes(n)),
    variantsRemoved: baseNames.filter((n) => !headNames.includes(n)),
    pointsAdded: headPoints.filter((p) => !basePoints.some((q) => samePoint(p, q))),
    pointsRemoved: basePoints.filter((p) => !headPoints.some((q) => samePoint(p, q))),
    comparedAt: head.ranking?.at ?? null,
    points,
    ranking,
    expectations,
  };
}
