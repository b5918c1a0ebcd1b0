/**
 * Limits on what a scenario file and an experiment may ask for. They exist to turn a typo
 * (10^12 clients, a 100-year horizon, 10^6 sweep points) into a clear error before
 * anything runs, instead of an out-of-memory crash or a validation that never ends an hour
 * later. Each is generous for real use, and each message says how to get under it.
 */
/**
 * Most hedges per try: gRPC's hedgingPolicy allows maxAttempts up to 5, the first try and 4
 * hedges. Here, in a module that imports nothing, because the simulation sizes its hedge
 * table with it (src/model/client/clients.ts) and must not load the schema (zod) to run.
 */
export const MAX_HEDGES = 4;

export const LIMITS = {
  /** Clients per population: client ids are kept in typed arrays. */
  clients: 10_000_000,
  /** Simulated time. */
  horizonS: 30 * 86_400,
  /** Expected user actions in one run (mean rate x horizon, per population summed). */
  actionsPerRun: 2_000_000_000,
  maxAttempts: 1_000,
  /** Retry layers per population: a call's state has 8 slots per layer (src/model/records.ts MAX_LAYERS). */
  layers: 8,
  slots: 1_000_000,
  /** Services of a graph besides the server: each is a whole server with its own records. */
  services: 64,
  queue: 100_000_000,
  seeds: 10_000,
  /** Sweep points: the values (or range steps) of one parameter, and the product over the parameters. */
  sweepPoints: 1_000,
  /** Buckets in a series (memory is buckets x columns). */
  buckets: 200_000,

  // ── Whole-file and whole-experiment guards ──
  /**
   * Size of a scenario file. The largest shipped scenario is 13 kB; a file past this is a
   * mistake (a log pasted in, /dev/zero), and parsing it would take seconds and gigabytes.
   */
  fileBytes: 1024 * 1024,
  /**
   * Nesting of mappings and lists in the file. Scenarios nest about 10 deep; the YAML
   * parser and the validator recurse, so thousands of levels would overflow the stack.
   */
  nesting: 64,
  /** Policy variants. */
  variants: 1_000,
  /** Variants x sweep points: each is a whole scenario, validated and kept in memory. */
  variantPoints: 10_000,
  /** Variants x sweep points x seeds. */
  runs: 100_000,
  /**
   * Buckets of results held in memory at once: runs x buckets per run. The outputs are
   * written from memory, at about 3 kB per bucket (measured: 160,000 buckets, 560 MB peak).
   */
  bucketsHeld: 1_000_000,
} as const;

/** Buckets per run when `measures.bucket` is left to "auto": at most this many (src/model/recorder.ts autoBucketS). */
export const AUTO_BUCKETS_AT_MOST = 1_000;

/** "1,000,000": limits are quoted as people read them. */
export function formatCount(n: number): string {
  if (n >= 1e15) return n.toExponential(1).replace('e+', 'e');
  // Not toLocaleString: Intl costs tens of milliseconds at start-up, where the schema is built.
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
