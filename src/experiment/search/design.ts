/**
 * The cliff search: where, between two values of one parameter, the probability that a run
 * recovers crosses a level (50% by default), with an interval, spending runs where the outcome
 * is uncertain. Pure: it knows nothing of scenarios, only an abstract trial (value, seed index)
 * -> recovered, asked for in batches so that a pool can run a batch in parallel.
 *
 * The design (docs/search.md says why):
 * 1. A coarse pass: `coarsePoints` evenly spaced values from `from` to `to`, `seedsPerLook`
 *    seeds each, in one batch.
 * 2. Sequential refinement, one batch of `seedsPerLook` seeds at a time. Each tried value is
 *    decided to lie before the crossing (its Wilson interval, at `decisionConfidence`, lies
 *    wholly on the surviving side of the level), after it (wholly on the other side), or is
 *    still open. The crossing lies between the last value decided before it and the first
 *    decided after it: the bracket. An open value inside the bracket gets more seeds, fewest
 *    first (an end of the range that leans beyond the level before the others, since deciding
 *    it ends the search), until it is decided or has `maxSeedsPerValue`; when none can, the widest gap in the
 *    bracket is split at its middle. This is noisy bisection: values far from the cliff are
 *    decided in a look or two, values on it collect seeds until they are.
 * 3. It stops when the bracket is at most `precision` wide, when the budget is spent, or when
 *    no gap can be split at the value resolution.
 *
 * The interval is the bracket: it inverts the per-value tests, so it assumes only that the
 * probability is monotone in the parameter. The point estimate is where an isotonic
 * (monotone) fit of every tried value crosses the level, kept inside the bracket.
 *
 * Determinism: every decision reads only completed batches, and the tallies are updated in
 * the batch's own order, so the same trial function gives the same search whatever runs the
 * batches, and however many at a time.
 */
import { proportionInterval, wilsonInterval, type Interval } from '../stats.js';
import { fittedCrossing, type Tally } from './isotonic.js';

export interface Trial {
  value: number;
  /** 0, 1, 2, … for each value: the i-th run at a value uses the experiment's i-th seed. */
  seedIndex: number;
}

/** Runs a batch of trials and answers, in the same order, whether each recovered. */
export type RunBatch = (trials: readonly Trial[]) => Promise<boolean[]>;

/** Whether the probability of recovering falls as the value grows (a longer outage) or rises (more capacity). */
export type Direction = 'falling' | 'rising';

export interface DesignSettings {
  /** Runs per look at one value; a look is one batch, so the pool can run its seeds in parallel. */
  seedsPerLook: number;
  /** Values of the coarse pass, both ends included. */
  coarsePoints: number;
  /** Most runs at one value: a value this close to the cliff is left open. */
  maxSeedsPerValue: number;
  /**
   * Two-sided confidence of the Wilson interval that decides a value's side of the level. Above
   * 95% because a value is looked at again after every batch; test/experiment/search checks that
   * the bracket then covers the true crossing at least 95% of the time.
   */
  decisionConfidence: number;
}

export const DEFAULT_DESIGN: DesignSettings = { seedsPerLook: 4, coarsePoints: 5, maxSeedsPerValue: 32, decisionConfidence: 0.99 };

export interface SearchSettings extends Partial<DesignSettings> {
  from: number;
  to: number;
  /** The probability of recovering whose crossing is sought, strictly between 0 and 1. */
  level: number;
  /** Stop once the crossing is bracketed this tightly (same unit as the values). */
  precision: number;
  /** Most runs to spend; at least coarsePoints x seedsPerLook. */
  budget: number;
  /** Values are multiples of this from `from` (default: a 1,024th of the range). */
  resolution?: number;
  /** Default: `directionFrom`, else read from the coarse pass (falling unless the far end recovered more often). */
  direction?: Direction;
  /**
   * Asked after the coarse pass, with the tallies at `from` and at `to`, when `direction` is
   * not given: run-search.ts answers once every variant's coarse pass is in, from all of them.
   */
  directionFrom?: (bottom: Tally, top: Tally) => Promise<Direction>;
}

/** A value's side of the level, as far as its runs decide it. */
export type Side = 'before' | 'after' | 'open';

export interface TriedValue {
  value: number;
  recovered: number;
  runs: number;
  /** Wilson 95% interval of the probability of recovering at this value. */
  interval: Interval;
  side: Side;
}

/** Where the crossing is: between two tried values, or outside the range searched. */
export type Crossing = 'within' | 'below-range' | 'above-range';

export type StopReason = 'precision' | 'budget' | 'resolution' | 'range';

export interface SearchResult {
  level: number;
  direction: Direction;
  crossing: Crossing;
  /** Where the monotone fit crosses the level, inside the interval; null outside the range, or where the fit never crosses it. */
  estimate: number | null;
  /** The values the crossing lies between; null on a side no tried value bounds. */
  interval: { lo: number | null; hi: number | null };
  /** Every tried value, in increasing order. */
  tried: TriedValue[];
  runs: number;
  stoppedBy: StopReason;
}

/**
 * Which side of the crossing a value lies on, from its tally: decided when the Wilson interval
 * at `confidence` lies wholly above or below the level, open otherwise. The one rule the
 * search applies (and a grid compared with it must apply, bench/search-vs-grid.ts).
 */
export function decideSide(recovered: number, runs: number, level: number, direction: Direction, confidence: number): Side {
  const w = wilsonInterval(recovered, runs, confidence);
  const high = w.lo > level, low = w.hi < level;
  if (!high && !low) return 'open';
  return (direction === 'falling') === high ? 'before' : 'after';
}

/** A problem with the settings, in words a user can act on. */
export function settingsProblem(s: SearchSettings): string | undefined {
  const d = { ...DEFAULT_DESIGN, ...s };
  if (!(Number.isFinite(s.from) && Number.isFinite(s.to) && s.from < s.to)) return `the range must go from a smaller value to a larger one (got ${s.from}..${s.to})`;
  if (!(s.level > 0 && s.level < 1)) return `the level is a probability strictly between 0 and 1, e.g. 0.5 (got ${s.level})`;
  if (!(s.precision > 0)) return `the precision must be above 0 (got ${s.precision})`;
  const least = d.coarsePoints * d.seedsPerLook;
  if (!(Number.isInteger(s.budget) && s.budget >= least)) return `the budget must be a whole number of runs, at least ${least} (the coarse pass: ${d.coarsePoints} values x ${d.seedsPerLook} seeds); got ${s.budget}`;
  if (s.resolution !== undefined && !(s.resolution > 0)) return `the resolution must be above 0 (got ${s.resolution})`;
  return undefined;
}

export async function searchTippingPoint(settings: SearchSettings, runBatch: RunBatch): Promise<SearchResult> {
  const problem = settingsProblem(settings);
  if (problem) throw new RangeError(problem);
  const d: DesignSettings = { ...DEFAULT_DESIGN, ...stripUndefined(settings) };
  const { from, to, level, precision, budget } = settings;
  const resolution = settings.resolution ?? (to - from) / 1024;
  const snap = (v: number) => Math.min(to, Math.max(from, clean(from + Math.round((v - from) / resolution) * resolution)));

  const tallies = new Map<number, Tally>();
  let runs = 0;
  const look = async (values: number[]): Promise<void> => {
    const trials: Trial[] = [];
    for (const value of values) {
      const t = tallies.get(value) ?? { value, recovered: 0, runs: 0 };
      tallies.set(value, t);
      for (let i = 0; i < d.seedsPerLook && runs + trials.length < budget; i++) trials.push({ value, seedIndex: t.runs + i });
    }
    const outcomes = await runBatch(trials);
    if (outcomes.length !== trials.length) throw new Error(`a batch of ${trials.length} trials answered ${outcomes.length} outcomes`);
    trials.forEach((trial, i) => {
      const t = tallies.get(trial.value)!;
      t.runs++;
      if (outcomes[i]) t.recovered++;
    });
    runs += trials.length;
  };

  // 1. The coarse pass.
  const coarse = [...new Set(Array.from({ length: d.coarsePoints }, (_, i) => (i === d.coarsePoints - 1 ? to : snap(from + ((to - from) * i) / (d.coarsePoints - 1)))))];
  await look(coarse);
  const direction = settings.direction ?? (settings.directionFrom ? await settings.directionFrom(tallies.get(from)!, tallies.get(to)!) : directionOf(tallies.get(from)!, tallies.get(to)!));

  const sideOf = (t: Tally): Side => decideSide(t.recovered, t.runs, level, direction, d.decisionConfidence);
  /** The side a value's observed fraction is on, decided or not. */
  const leans = (t: Tally): Side => ((direction === 'falling') === (t.recovered / t.runs > level) ? 'before' : 'after');

  // 2. Refinement, one look at a time.
  let stoppedBy: StopReason;
  for (;;) {
    const sorted = [...tallies.values()].sort((a, b) => a.value - b.value);
    const b = bracket(sorted, sideOf);
    if (b.hi === from || b.lo === to) { stoppedBy = 'range'; break; }
    if (b.lo !== null && b.hi !== null && b.hi - b.lo <= precision) { stoppedBy = 'precision'; break; }
    if (runs >= budget) { stoppedBy = 'budget'; break; }
    const L = b.lo ?? from, H = b.hi ?? to;
    const inside = sorted.filter((t) => t.value >= L && t.value <= H && sideOf(t) === 'open');
    // Fewest seeds first; among equals, an end of the range that leans beyond the level (the
    // top still recovering, the bottom already failing) first: deciding it ends the search at
    // once, so a policy that never tips costs the coarse pass and one look, not a second look
    // at every value.
    const ends = (t: Tally) => ((t.value === to && leans(t) === 'before') || (t.value === from && leans(t) === 'after') ? 0 : 1);
    const resample = inside.filter((t) => t.runs < d.maxSeedsPerValue).sort((p, q) => p.runs - q.runs || ends(p) - ends(q) || p.value - q.value)[0];
    if (resample) { await look([resample.value]); continue; }
    const split = widestSplit([L, ...inside.map((t) => t.value).filter((v) => v > L && v < H), H], snap, tallies);
    if (split === undefined) { stoppedBy = 'resolution'; break; }
    await look([split]);
  }

  // 3. The answer.
  const sorted = [...tallies.values()].sort((a, b) => a.value - b.value);
  const b = bracket(sorted, sideOf);
  const crossing: Crossing = b.hi === from ? 'below-range' : b.lo === to ? 'above-range' : 'within';
  let estimate: number | null = null;
  if (crossing === 'within') {
    // Where the fit never crosses the level (the budget ran out with every value still
    // recovering, say), there is no estimate: the midpoint of the range it once gave was a
    // tipping point no run showed.
    const fitted = fittedCrossing(sorted, direction, level);
    const lo = b.lo ?? from, hi = b.hi ?? to;
    estimate = fitted === null ? null : Math.min(hi, Math.max(lo, fitted));
  }
  return {
    level,
    direction,
    crossing,
    estimate,
    interval: crossing === 'below-range' ? { lo: null, hi: from } : crossing === 'above-range' ? { lo: to, hi: null } : { lo: b.lo, hi: b.hi },
    tried: sorted.map((t) => ({ value: t.value, recovered: t.recovered, runs: t.runs, interval: proportionInterval(t.recovered, t.runs), side: sideOf(t) })),
    runs,
    stoppedBy,
  };
}

/**
 * The first value decided after the crossing, and the last value decided before it that lies
 * below that one (a value decided "before" beyond a value decided "after" contradicts the
 * monotone assumption, or is a rare wrong decision: the nearer evidence wins).
 */
function bracket(sorted: readonly Tally[], sideOf: (t: Tally) => Side): { lo: number | null; hi: number | null } {
  const after = sorted.find((t) => sideOf(t) === 'after');
  let lo: number | null = null;
  for (const t of sorted) {
    if (after && t.value >= after.value) break;
    if (sideOf(t) === 'before') lo = t.value;
  }
  return { lo, hi: after ? after.value : null };
}

/** The middle of the widest gap between neighbouring points that a new value (at the resolution) can split. */
function widestSplit(points: number[], snap: (v: number) => number, tallies: ReadonlyMap<number, Tally>): number | undefined {
  const gaps = points.slice(1).map((v, i) => ({ u: points[i], v, width: v - points[i] })).sort((a, b) => b.width - a.width || a.u - b.u);
  for (const g of gaps) {
    const mid = snap((g.u + g.v) / 2);
    if (mid > g.u && mid < g.v && !tallies.has(mid)) return mid;
  }
  return undefined;
}

/** Falling (the common case: a bigger kick) unless the top of the range recovered more often than the bottom. */
export function directionOf(bottom: Tally, top: Tally): Direction {
  return top.recovered / top.runs > bottom.recovered / bottom.runs ? 'rising' : 'falling';
}

/** Rounds away binary noise (0.1 + 0.2), so that values print and compare as written. */
function clean(v: number): number {
  return Number(v.toPrecision(12));
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
