// What the shipped story 000 scenario's recovering variants must show, read by the
// first 40 minutes (dependency-outage-recovers.slow.test.ts) and by the full 3 hours
// (dependency-outage.slow.test.ts): the same assertions on a run cut short and on the
// whole run.
import { expect } from 'vitest';
import type { RunResult } from '../../src/experiment/run-one.js';

type Measures = RunResult['summary']['measures'];

/** Without retries the service is back within two minutes of a 12-minute outage's end, at 1x load. */
export function expectNoRetriesRecovers(r: Measures, outageS: number): void {
  expect(r.recovered).toBe(1);
  expect(r.recoveryTimeS).not.toBeNull();
  expect(r.recoveryTimeS!).toBeLessThanOrEqual(120);
  expect(r.perceivedOutageS).toBeGreaterThanOrEqual(outageS - 20);
  expect(r.perceivedOutageS).toBeLessThanOrEqual(outageS + 60);
  expect(r.peakLoadMultiple).toBeLessThan(1.15);
  expect(r.attemptsPerActionMax).toBe(1);
}

/** A 200-attempt queue alone lets the retrying clients recover within two minutes. */
export function expectShortQueueRecovers(r: Measures): void {
  expect(r.recovered).toBe(1);
  expect(r.recoveryTimeS!).toBeLessThanOrEqual(120);
}
