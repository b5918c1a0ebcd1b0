/**
 * Orders variants that trade objectives against each other, from the per-objective verdicts
 * of every pair (src/experiment/paired.ts), without letting one objective overrule all the
 * others the way a lexicographic order does.
 *
 * 1. Dominance. A variant dominates another when it is at least as good on every objective
 *    and better on one; it always ranks above it. The Pareto fronts are reported: the first
 *    is every variant nobody dominates, the next what nobody left dominates, and so on.
 * 2. A weighed vote. For each pair, the weights of the objectives each side wins are added
 *    up and the side with more wins the pair (Copeland's rule: a variant's score is the pairs
 *    it wins, plus half the pairs it draws). Places are filled best score first, each time
 *    among the variants that nothing left dominates. (Ordering front by front instead would
 *    put a variant 3 minutes worse on users' outage but best on one cost above a variant
 *    that beats it, only because a third variant dominates that one.)
 * 3. Equal scores keep the objectives' order: the first objective (in the scenario's order)
 *    on which one of the two is better decides; then the scenario's order of variants.
 *
 * Ties are not transitive (a ties b and b ties c within tolerance while a beats c), so
 * dominance can in principle run in a circle; if no variant is left undominated, the rest
 * form one front rather than none.
 */
import type { Side } from './paired.js';

/** The verdict of every pair on every objective: sides[i][j][k] is objective k between variants i and j ('a' = i better). */
export type PairSides = ReadonlyArray<ReadonlyArray<ReadonlyArray<Side>>>;

/** Does variant i dominate variant j: never worse, and better on at least one objective? */
export function dominates(sides: PairSides, i: number, j: number): boolean {
  let better = false;
  for (const s of sides[i][j]) {
    if (s === 'b') return false;
    if (s === 'a') better = true;
  }
  return better;
}

/** The Pareto front (1 = undominated) of each of `members` (indices into `sides`). */
export function paretoFronts(sides: PairSides, members: readonly number[]): Map<number, number> {
  const front = new Map<number, number>();
  let left = [...members];
  for (let f = 1; left.length > 0; f++) {
    let here = left.filter((j) => !left.some((i) => i !== j && dominates(sides, i, j)));
    if (here.length === 0) here = left; // a circle of dominance: see the header
    for (const j of here) front.set(j, f);
    left = left.filter((j) => !here.includes(j));
  }
  return front;
}

/** The weighed vote between i and j: positive when i wins more weight of objectives than j. */
export function pairVote(sides: PairSides, weights: readonly number[], i: number, j: number): number {
  let vote = 0;
  sides[i][j].forEach((s, k) => {
    if (s === 'a') vote += weights[k];
    else if (s === 'b') vote -= weights[k];
  });
  return vote;
}

/** The first objective, in order, on which one of the two is better: -1 when i is, 1 when j is, 0 when neither. */
function lexicographic(sides: PairSides, i: number, j: number): number {
  for (const s of sides[i][j]) if (s !== null) return s === 'a' ? -1 : 1;
  return 0;
}

/**
 * `members` ordered best first: at each place, among the variants no remaining variant
 * dominates, the one with the highest Copeland score (over every member), then the first
 * in the objectives' order, then as given (the scenario's order). A dominated variant thus
 * waits for its dominator, whatever its score.
 */
export function orderByTradeOffs(sides: PairSides, weights: readonly number[], members: readonly number[]): { order: number[]; front: Map<number, number>; score: Map<number, number> } {
  const front = paretoFronts(sides, members);
  const score = new Map<number, number>();
  for (const i of members) {
    let s = 0;
    for (const j of members) {
      if (i === j) continue;
      const v = pairVote(sides, weights, i, j);
      s += v > 0 ? 1 : v === 0 ? 0.5 : 0;
    }
    score.set(i, s);
  }
  const position = new Map(members.map((m, k) => [m, k]));
  const better = (i: number, j: number) => score.get(j)! - score.get(i)! || lexicographic(sides, i, j) || position.get(i)! - position.get(j)!;
  const order: number[] = [];
  let left = [...members];
  while (left.length > 0) {
    let free = left.filter((j) => !left.some((i) => i !== j && dominates(sides, i, j)));
    if (free.length === 0) free = left; // a circle of dominance: see the header
    const next = free.reduce((a, b) => (better(a, b) <= 0 ? a : b));
    order.push(next);
    left = left.filter((j) => j !== next);
  }
  return { order, front, score };
}
