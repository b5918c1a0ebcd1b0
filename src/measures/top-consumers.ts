/**
 * The top consumers of each rate-limit stage, as the results carry them (story 001: "Top
 * consumers: identifying which users or IPs are constantly near their limits can reveal
 * intense use or abuse"). One run's lists come ranked from the model
 * (src/model/server/key-counts.ts); this module reduces them to plain data and folds a
 * point's seeds into one list per stage.
 *
 * Folding: a key's `seen` and `refused` are their means per run over the point's seeds, a
 * seed in neither of whose lists the key is counting 0 for it; the keys are ranked again the same
 * way (seen, then refused, then name; refused, then seen, then name) and cut to the longest
 * list a seed gave. With one seed the list is that seed's; with several it is exact for the
 * keys every seed listed, and a lower bound for the others.
 */
import type { RateLimitReport, TopKey } from '../model/server/rate-limit-report.js';

export interface RateLimitOutcome {
  /** The stage's position among the run's rate-limit stages (0: the first made). */
  stage: number;
  key: RateLimitReport['key'];
  store: RateLimitReport['store'];
  /** Requests the stage checked, and refused (means per run over a point's seeds). */
  checked: number;
  refused: number;
  topBySeen: TopKey[];
  topByRefused: TopKey[];
}

export function rateLimitOutcomes(reports: readonly RateLimitReport[]): RateLimitOutcome[] {
  const copy = (k: TopKey): TopKey => ({ key: k.key, seen: k.seen, refused: k.refused });
  return reports.map((r) => ({
    stage: r.stage,
    key: r.key,
    store: r.store,
    checked: r.checked,
    refused: r.refused,
    topBySeen: r.topBySeen.map(copy),
    topByRefused: r.topByRefused.map(copy),
  }));
}

/** Ranks by `first`, then `second`, then the key's name (the model ranks by key index; names keep the order for one population). */
function rank(keys: TopKey[], first: 'seen' | 'refused', n: number): TopKey[] {
  const second = first === 'seen' ? 'refused' : 'seen';
  return [...keys]
    .sort((a, b) => b[first] - a[first] || b[second] - a[second] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, n);
}

/** One point's runs folded: the stages are the same, in the same order, in every run of a point. */
export function foldRateLimits(perRun: readonly RateLimitOutcome[][]): RateLimitOutcome[] {
  if (perRun.length === 0) return [];
  if (perRun.length === 1) return perRun[0];
  const runs = perRun.length;
  return perRun[0].map((first, i) => {
    const all = perRun.map((r) => r[i]);
    // What each seed knows of a key, from either of its lists.
    const known = all.map((r) => new Map([...r.topBySeen, ...r.topByRefused].map((k) => [k.key, k])));
    const merged = (list: 'topBySeen' | 'topByRefused') => {
      const names = new Set(all.flatMap((r) => r[list].map((k) => k.key)));
      const keys = [...names].map((key) => {
        const m: TopKey = { key, seen: 0, refused: 0 };
        for (const seed of known) {
          const k = seed.get(key);
          if (k) {
            m.seen += k.seen / runs;
            m.refused += k.refused / runs;
          }
        }
        return m;
      });
      return rank(keys, list === 'topBySeen' ? 'seen' : 'refused', Math.max(...all.map((r) => r[list].length)));
    };
    return {
      stage: first.stage,
      key: first.key,
      store: first.store,
      checked: all.reduce((a, r) => a + r.checked, 0) / runs,
      refused: all.reduce((a, r) => a + r.refused, 0) / runs,
      topBySeen: merged('topBySeen'),
      topByRefused: merged('topByRefused'),
    };
  });
}
