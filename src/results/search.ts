/**
 * The cliff search's part of the results: per variant, the tipping point with its interval,
 * every tried value with its k of n and Wilson interval, and the runs spent. One zod schema
 * (type and strict parser), built once from the search; summary.json carries it as `search`
 * and `retrystorm edge --out` writes it alone as search.json.
 */
import { z } from 'zod';
import type { SearchOutcome } from '../experiment/search/run-search.js';
import { round6 } from './numbers.js';

const maybe = z.number().nullable();

export const searchResultsSchema = z.strictObject({
  parameter: z.string(),
  /** How the parameter's values are written: seconds (duration), per second (rate), or plain numbers. */
  kind: z.enum(['duration', 'rate', 'number']),
  from: z.number(),
  to: z.number(),
  level: z.number(),
  precision: z.number(),
  budget: z.number().int(),
  /** The base seed: the i-th run at a value used seed + i. */
  seed: z.number().int(),
  variants: z.array(z.strictObject({
    variant: z.string(),
    direction: z.enum(['falling', 'rising']),
    /** Where the crossing is: between tried values, or beyond an end of the range. */
    crossing: z.enum(['within', 'below-range', 'above-range']),
    /** The tipping point: where a monotone fit of the tried values crosses the level (null beyond the range). */
    estimate: maybe,
    /** The interval the crossing lies in (null: unbounded on that side). */
    lo: maybe,
    hi: maybe,
    runs: z.number().int(),
    stoppedBy: z.enum(['precision', 'budget', 'resolution', 'range']),
    tried: z.array(z.strictObject({
      value: z.number(),
      recovered: z.number().int(),
      runs: z.number().int(),
      /** Wilson 95% interval of the probability of recovering at this value. */
      lo: z.number(),
      hi: z.number(),
      side: z.enum(['before', 'after', 'open']),
    })),
  })),
});

export type SearchResults = z.infer<typeof searchResultsSchema>;
export type VariantSearchResult = SearchResults['variants'][number];

const r6 = (x: number | null) => (x === null ? null : round6(x));

export function buildSearchResults(o: SearchOutcome): SearchResults {
  const s = o.search;
  return {
    parameter: s.parameter,
    kind: s.kind,
    from: s.from,
    to: s.to,
    level: s.level,
    precision: s.precision,
    budget: s.budget,
    seed: o.seed,
    variants: o.variants.map(({ variant, result: r }) => ({
      variant,
      direction: r.direction,
      crossing: r.crossing,
      estimate: r6(r.estimate),
      lo: r6(r.interval.lo),
      hi: r6(r.interval.hi),
      runs: r.runs,
      stoppedBy: r.stoppedBy,
      tried: r.tried.map((t) => ({ value: round6(t.value), recovered: t.recovered, runs: t.runs, lo: round6(t.interval.lo), hi: round6(t.interval.hi), side: t.side })),
    })),
  };
}

type TriedValue = VariantSearchResult['tried'][number];

/**
 * Tried values whose 95% interval lies wholly on the other side of the level from where the
 * crossing puts them: a value below the bracket that surely fails on a falling curve, or one
 * above it that surely recovers. The search assumes a monotone curve and trusts the nearer
 * evidence (docs/search.md); these values are the evidence against that assumption, said
 * beside the tipping point so that nobody reads it as settled.
 */
export function contradictions(s: SearchResults, v: VariantSearchResult): TriedValue[] {
  // The bracket's ends: below the range, every tried value is past the crossing; above it, none is.
  const recoversBelow = v.direction === 'falling';
  return v.tried.filter((t) => {
    const surely = t.lo > s.level ? 'recovers' : t.hi < s.level ? 'fails' : null;
    if (surely === null) return false;
    if (v.lo !== null && t.value <= v.lo) return surely !== (recoversBelow ? 'recovers' : 'fails');
    if (v.hi !== null && t.value >= v.hi) return surely !== (recoversBelow ? 'fails' : 'recovers');
    return false;
  });
}
