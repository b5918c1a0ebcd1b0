/**
 * The ranking across a sweep: which policy is best over the whole swept range, not only at
 * one point. The verdict's second sentence reads it (src/report/verdict.ts, sweepSentence).
 */
import type { VariantAggregate } from './aggregate.js';

/**
 * What it reads of a ranked point (src/experiment/ranking.ts RankedPoint): each entry's rank
 * and values, and the contenders: the variants that had a fault when any did (a control
 * without one "recovers" in 0 s by definition and is never the pick, nor the best outage).
 */
export interface RankedEntries {
  entries: ReadonlyArray<{ variant: string; rank: number; values: Record<string, number | null> }>;
  contenders: ReadonlySet<string>;
}

/**
 * Which policy is best across a sweep, not only at one point: at how many of the ranked
 * points each variant is first among the contenders (alone or tied), and its worst-case
 * regret, the most perceived outage it costs users beyond the best contender at any point (0 when it is never worse than
 * the best there; null when it has no outage value at some point it ran). Best first: most
 * points first, then least regret, then the scenario's order.
 */
export interface AcrossPoints {
  points: number;
  variants: Array<{ variant: string; first: number; ranked: number; worstRegretS: number | null }>;
}

export function acrossPoints(variants: readonly VariantAggregate[], points: readonly RankedEntries[]): AcrossPoints {
  const rows = variants.map((v, order) => {
    let first = 0, ranked = 0;
    let worst: number | null = 0;
    for (const p of points) {
      const e = p.entries.find((x) => x.variant === v.name);
      if (!e || !p.contenders.has(v.name)) continue;
      const contenders = p.entries.filter((x) => p.contenders.has(x.variant));
      ranked++;
      if (e.rank === contenders[0].rank) first++;
      const best = Math.min(...contenders.map((x) => x.values.perceivedOutageS ?? Infinity));
      const own = e.values.perceivedOutageS ?? null;
      if (worst !== null) worst = own === null || !Number.isFinite(best) ? null : Math.max(worst, own - best);
    }
    return { variant: v.name, first, ranked, worstRegretS: ranked > 0 ? worst : null, order };
  }).filter((x) => x.ranked > 0);
  rows.sort((a, b) => b.first - a.first || (a.worstRegretS ?? Infinity) - (b.worstRegretS ?? Infinity) || a.order - b.order);
  return { points: points.length, variants: rows.map(({ order: _, ...x }) => x) };
}
