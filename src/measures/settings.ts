/**
 * The knobs of the measures: how long a warm-up to leave out, how healthy is healthy, how
 * long it must last. Scenario settings (the `measures:` block; src/experiment/settings.ts
 * maps one onto the other); the reports show the values they used.
 */

export interface MeasureSettings {
  /** Seconds at the start of the run left out of the baseline (queues and clients settle). */
  warmupS: number;
  /** Seconds the service must stay healthy, without a break, to count as recovered. */
  holdS: number;
  /**
   * Width (s) of the window health is judged over. Recovery time slides this window one
   * second at a time, so it is resolved to the second whatever the buckets; default: the
   * bucket width.
   */
  healthWindowS?: number;
  /** How far (absolute) a window's success ratio may sit below the pre-fault ratio and still be healthy. */
  successRatioDrop: number;
  /** How far (relative) a window's offered load multiple may sit above the pre-fault one and still be healthy. */
  loadExcess: number;
  /** Users perceive an outage in a bucket whose success ratio is below this; below it before the first fault, a variant was never healthy. */
  perceivedOutageThreshold: number;
  /** Busy slots over available slots, before the first fault, at or above which the server counts as saturated (unhealthy before the fault). */
  saturation: number;
  /** Declared 1x user-action rate (actions/s); measured from the pre-fault window when absent. */
  baselineRate?: number;
  /** Buckets with fewer attempts have no retry share: a handful of attempts makes a noisy ratio. */
  minAttemptsForShare: number;
  /** How long users must see the service up again before a fall counts as a relapse. */
  relapseUpS: number;
}

export const DEFAULT_MEASURE_SETTINGS: Readonly<MeasureSettings> = Object.freeze({
  warmupS: 60,
  holdS: 120,
  successRatioDrop: 0.02,
  loadExcess: 0.2,
  perceivedOutageThreshold: 0.9,
  saturation: 0.98,
  minAttemptsForShare: 20,
  relapseUpS: 60,
});
