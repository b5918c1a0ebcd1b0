/**
 * The partial failures a fault sets on a service (an instance, or a dependency) while it
 * lasts. A file of its own so the instance, the dependencies and the faults that set them all
 * share one shape without importing each other: requests that start service fail with
 * probability errorRate, and take factor x their time plus add().
 */
export interface ServiceFaults {
  errorRate: number;
  errorRng: () => number;
  slow: boolean;
  factor: number;
  add: (() => number) | undefined;
}
