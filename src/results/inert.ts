/**
 * Variants whose change never took effect: at every sweep point, every seed's run measured
 * exactly as the baseline's run on the same seed (the same streams, so the same world gives
 * the same numbers). A per-client budget among 200,000 clients, a breaker whose threshold is
 * never reached, a limit above the peak: the policy is configured and inert, and the ranking
 * would otherwise read it as "no change" with no hint why. Found once, from the per-seed
 * measures the results keep; summary.md, the terminal and the report say it.
 */
import type { Results } from './results.js';

export type InertVariant = NonNullable<Results['inert']>[number];

export function inertVariants(variants: Results['variants'], baseline: string | undefined): InertVariant[] {
  const base = variants.find((v) => v.name === baseline);
  if (!base) return [];
  const runsOf = (v: Results['variants'][number]) => new Map(v.points.flatMap((p) => p.perSeed.map((s) => [`${p.point}/${s.seed}`, JSON.stringify(s.measures)] as const)));
  const expected = runsOf(base);
  const out: InertVariant[] = [];
  for (const v of variants) {
    if (v === base) continue;
    const runs = runsOf(v);
    let compared = 0, same = true;
    for (const [key, measures] of runs) {
      const theirs = expected.get(key);
      if (theirs === undefined) continue;
      compared++;
      if (theirs !== measures) { same = false; break; }
    }
    if (same && compared > 0) out.push({ variant: v.name, like: base.name, runs: compared });
  }
  return out;
}
