/**
 * Seeds where they decide something (`seeds: auto`): every cell (a variant at a sweep point)
 * starts with a few seeds, and after each round of runs the ranking says which pairs of
 * variants it could not yet order (RankedPoint.undecided: their means differ beyond the tie
 * tolerance, the paired seeds cannot tell it from noise). Only the two cells of such a pair
 * in the top group (the best gate present: the variants the pick comes from) get more seeds, doubling at each look (start, 2 x start, 4 x start, ... capped at max), the
 * pairs of the highest-ranked variants first while the budget lasts. Cells that no ranked
 * point reads (outside `compare.at`) keep their start seeds: they draw curves, not the pick.
 *
 * The sequential rule and its error rate. A pair is judged at every look its seeds in common
 * grow to (at most L looks: the levels start, 2 x start, ... max). Each look judges at the
 * confidence 1 - 0.05 / L, so by Bonferroni's inequality the chance that a pair with no real
 * difference on an objective is ever found different, over all its looks, is at most 5%: the
 * same as one look at fixed seeds with 95% intervals. The ranking of the last look is judged
 * at that confidence too (Ranking.confidence). A tie within the tolerance is, as with fixed
 * seeds, read from the means: a difference nobody would act on, not a statistical claim.
 *
 * Every variant at a point runs the same seeds from the base seed up, so a cell's seeds are a
 * prefix of every other's and the pairs stay paired. The rounds depend only on the results,
 * never on which worker finished first: the same scenario and seed give the same runs.
 */
import type { AutoSeeds } from '../scenario/seed-count.js';
import { PAIRED_CONFIDENCE } from './paired.js';
import type { Ranking } from './ranking.js';
import type { RunSpec } from './expand.js';

/** The seed counts a cell can have, from the start up: each look doubles it, capped at max. */
export function seedLevels(auto: AutoSeeds): number[] {
  const levels = [auto.start];
  while (levels[levels.length - 1] < auto.max) levels.push(Math.min(auto.max, levels[levels.length - 1] * 2));
  return levels;
}

/** The confidence each look judges at: 5% of false differences shared over the looks. */
export function lookConfidence(auto: AutoSeeds): number {
  return 1 - (1 - PAIRED_CONFIDENCE) / seedLevels(auto).length;
}

/** Why a cell got the seeds it got. */
export type SeedReason =
  /** Its place against every variant of its gate is decided (or it has no rival there). */
  | 'decided'
  /** Still undecided against a rival, at the most seeds a cell gets. */
  | 'max'
  /** Still undecided, and the budget could not pay for the next look. */
  | 'budget'
  /** Ranked below a gate (not recovered in every seed, below a floor, unhealthy before the fault): its order there does not change the pick. */
  | 'gated'
  /** No ranked point reads it (outside compare.at): the start seeds draw its curves. */
  | 'unranked'
  /** Still undecided, and the experiment is partial (stopped, or a run failed). */
  | 'partial';

export interface CellSeeds {
  variant: string;
  point: number;
  seeds: number;
  reason: SeedReason;
  /** The rivals it is still undecided against (reasons max, budget and partial). */
  undecidedAgainst: string[];
}

export interface SeedingOutcome {
  start: number;
  max: number;
  budget: number | null;
  /** The seed counts of the looks (start, 2 x start, ... max). */
  levels: number[];
  /** The confidence each look judged at (see the header). */
  confidence: number;
  /** Every cell, in the scenario's order of variants, then points. */
  cells: CellSeeds[];
}

/** The seeds of every cell (variant x point), as the plan grows. */
export class SeedPlan {
  private readonly counts = new Map<string, number>();
  readonly levels: number[];

  constructor(
    readonly auto: AutoSeeds,
    variants: readonly string[],
    points: readonly number[],
  ) {
    this.levels = seedLevels(auto);
    for (const v of variants) for (const p of points) this.counts.set(key(v, p), auto.start);
  }

  seedsOf(variant: string, point: number): number {
    return this.counts.get(key(variant, point)) ?? 0;
  }

  /** Runs planned so far. */
  get runs(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /**
   * The next look: raises both cells of each undecided pair of the ranking to the level
   * above their seeds in common, the pairs of the best-ranked variants first, while the
   * budget pays for it. Returns how many seeds each raised cell now has (empty: no look is left).
   */
  nextLook(ranking: Ranking): Map<string, { variant: string; point: number; from: number; to: number }> {
    const raised = new Map<string, { variant: string; point: number; from: number; to: number }>();
    let runs = this.runs;
    const budget = this.auto.budget ?? Infinity;
    // A pair's look is the level above its seeds in common when this look began: a cell raised
    // for one pair does not carry another pair past the level it is to be judged at next.
    const before = new Map(this.counts);
    const judgedAt = (v: string, point: number) => before.get(key(v, point)) ?? 0;
    for (const p of ranking.points) {
      const place = new Map(p.entries.map((e, position) => [e.variant, position]));
      // The pairs of the top group, in the order of their better member's place, then the
      // other's: the pick's first. Below a gate, an order does not change the pick.
      const top = topGroup(p);
      const pairs = p.undecided.filter((u) => top.has(u.above) && top.has(u.below)).sort((a, b) => place.get(a.above)! - place.get(b.above)! || place.get(a.below)! - place.get(b.below)!);
      for (const pair of pairs) {
        const common = Math.min(judgedAt(pair.above, p.point), judgedAt(pair.below, p.point));
        const target = this.levels.find((l) => l > common);
        if (target === undefined) continue; // both at max
        const cost = [pair.above, pair.below].reduce((sum, v) => sum + Math.max(0, target - this.seedsOf(v, p.point)), 0);
        if (runs + cost > budget) continue;
        runs += cost;
        for (const v of [pair.above, pair.below]) {
          const from = this.seedsOf(v, p.point);
          if (from >= target) continue;
          const k = key(v, p.point);
          this.counts.set(k, target);
          raised.set(k, { variant: v, point: p.point, from: raised.get(k)?.from ?? from, to: target });
        }
      }
    }
    return raised;
  }
}

/**
 * Why each cell has the seeds it has: read from the runs the plan made and the ranking of the
 * last look (also by `merge`, from runs.json, so a merged result says the same).
 */
export function seedingOf(auto: AutoSeeds, variants: readonly string[], points: readonly number[], runs: readonly RunSpec[], ranking: Ranking | null, partial: boolean): SeedingOutcome {
  const seeds = new Map<string, number>();
  for (const r of runs) seeds.set(key(r.variant, r.point), (seeds.get(key(r.variant, r.point)) ?? 0) + 1);
  const seedsOf = (v: string, point: number) => seeds.get(key(v, point)) ?? 0;
  const cells: CellSeeds[] = [];
  for (const v of variants) {
    for (const point of points) {
      const n = seedsOf(v, point);
      const ranked = ranking?.points.find((p) => p.point === point);
      if (!ranked) {
        cells.push({ variant: v, point, seeds: n, reason: 'unranked', undecidedAgainst: [] });
        continue;
      }
      if (!topGroup(ranked).has(v)) {
        cells.push({ variant: v, point, seeds: n, reason: 'gated', undecidedAgainst: [] });
        continue;
      }
      const top = topGroup(ranked);
      const against = ranked.undecided.flatMap((u) => (!top.has(u.above) || !top.has(u.below) ? [] : u.above === v ? [u.below] : u.below === v ? [u.above] : []));
      const below = against.some((w) => Math.min(n, seedsOf(w, point)) < auto.max);
      const reason: SeedReason = against.length === 0 ? 'decided' : partial ? 'partial' : below ? 'budget' : 'max';
      cells.push({ variant: v, point, seeds: n, reason, undecidedAgainst: against });
    }
  }
  return { start: auto.start, max: auto.max, budget: auto.budget ?? null, levels: seedLevels(auto), confidence: lookConfidence(auto), cells };
}

/** The variants of the best gate present at a ranked point: the group the pick comes from. */
function topGroup(p: Ranking['points'][number]): Set<string> {
  const best = p.entries[0]?.gate ?? null;
  return new Set(p.entries.filter((e) => e.gate === best).map((e) => e.variant));
}

const key = (variant: string, point: number) => `${variant}\u0000${point}`;
