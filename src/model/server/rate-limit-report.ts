/**
 * What each rate-limit stage saw over a run, as the run's record carries it: the requests it
 * checked and refused, its shared store's queue (rate-limit-store.ts), and its top consumers
 * (key-counts.ts). Types only, imported by the record (series.ts), so it imports nothing.
 */

/** What a shared store did over a run. */
export interface StoreTotals {
  /** Checks the store ran. */
  checks: number;
  /** Sum of the waits in its queue of the checks it ran (s), round trip and service excluded. */
  waitS: number;
  /** The longest of those waits (s). */
  waitMaxS: number;
  /** Checks that timed out (never run): store failures handled by onStoreFailure. */
  timeouts: number;
}

/** One key among a stage's top consumers. */
export interface TopKey {
  /** The key as people read it: "partner#0" (client 0 of population partner), "signup ip#12", a route name, or "all" for a global limit. */
  key: string;
  /** Requests of this key the stage checked. */
  seen: number;
  /** Of them, refused by the stage (429). */
  refused: number;
}

export interface RateLimitReport {
  /** The stage's position among the run's rate-limit stages (0 = the first made). */
  stage: number;
  /** What the limit is per. */
  key: 'ip' | 'client' | 'route' | 'global';
  store: 'local' | 'shared';
  /** Requests the stage checked, and refused. */
  checked: number;
  refused: number;
  /** The shared store's queue (null for a local store). */
  sharedStore: StoreTotals | null;
  /** The busiest keys by requests seen (then refused), and by requests refused (then seen), ties by key index; at most `topKeys` each. */
  topBySeen: TopKey[];
  topByRefused: TopKey[];
}

