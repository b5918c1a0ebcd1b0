/**
 * A rate-limit stage's top consumers: the keys that sent it the most requests and got the
 * most refusals. Story 001 lists them among what to monitor: "Top consumers: identifying
 * which users or IPs are constantly near their limits can reveal intense use or abuse."
 * Counts per key are kept in two typed arrays indexed by the stage's dense key, and ranked
 * once, at the end of the run.
 */
import type { Identities } from './request.js';
import type { RateLimitReport } from './rate-limit-report.js';

/**
 * Requests seen and refused per key of one stage: 8 bytes a key (half the fixed window's own
 * state; 32-bit counts, as no key sends four billion requests in a run).
 */
export class KeyCounts {
  readonly seen: Uint32Array;
  readonly refused: Uint32Array;
  constructor(keys: number) {
    this.seen = new Uint32Array(keys);
    this.refused = new Uint32Array(keys);
  }

  /**
   * The indices of the `n` largest keys by `first`, then `second`, then the smaller index:
   * one pass keeping a sorted list of n (n is small), so a million keys cost a million looks.
   */
  top(n: number, first: Uint32Array, second: Uint32Array): number[] {
    const out: number[] = [];
    if (n <= 0) return out;
    const before = (a: number, b: number) => first[a] > first[b] || (first[a] === first[b] && (second[a] > second[b] || (second[a] === second[b] && a < b)));
    for (let k = 0; k < first.length; k++) {
      if (first[k] <= 0) continue;
      if (out.length === n && !before(k, out[n - 1])) continue;
      let i = out.length === n ? n - 1 : out.length;
      if (out.length < n) out.push(k);
      while (i > 0 && before(k, out[i - 1])) {
        out[i] = out[i - 1];
        i--;
      }
      out[i] = k;
    }
    return out;
  }
}

/** How a stage's key index reads: "population#n" for a client, "population ip#n" for an IP, the route's name, "all". */
export function keyName(kind: RateLimitReport['key'], k: number, ids: Identities, populations: readonly string[]): string {
  if (kind === 'global') return 'all';
  if (kind === 'route') return ids.routes[k] ?? `route#${k}`;
  // The population whose range of clients (or IPs) holds k (a population of none holds nothing).
  const offset = (i: number) => (i >= ids.pops.length ? (kind === 'client' ? ids.clients : ids.ips) : kind === 'client' ? ids.pops[i].clientOffset : ids.pops[i].ipOffset);
  let p = 0;
  while (p + 1 < ids.pops.length && !(offset(p) <= k && k < offset(p + 1))) p++;
  return `${populations[p] ?? `population${p}`}${kind === 'ip' ? ' ip' : ''}#${k - offset(p)}`;
}
