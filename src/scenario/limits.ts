/**
 * Limits on what one run may ask for. They exist to turn a typo (10^12 clients, a 100-year
 * horizon) into a clear error before the run starts, instead of an out-of-memory crash an
 * hour later. Each is generous for real use.
 */
export const LIMITS = {
  /** Clients per population: client ids are kept in typed arrays. */
  clients: 10_000_000,
  /** Simulated time. */
  horizonS: 30 * 86_400,
  /** Expected user actions in one run (mean rate x horizon, per population summed). */
  actionsPerRun: 2_000_000_000,
  maxAttempts: 1_000,
  slots: 1_000_000,
  queue: 100_000_000,
  seeds: 10_000,
  /** Points of one swept parameter. */
  sweepPoints: 1_000,
  /** Buckets in a series (memory is buckets x columns). */
  buckets: 200_000,
} as const;
