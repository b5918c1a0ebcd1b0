// The calibration's round trip on the simulator itself (issue 36's must-show): a world with
// known parameters has an incident (one run on a seed of its own, written as the observed
// series); calibrate, from a perturbed start, fits the same world's parameters back. Over 20
// incidents, each parameter's 95% interval must hold the truth at least 18 times, and the
// fitted value must sit inside its own interval every time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioFile } from '../../../src/scenario/load.js';
import { runOne } from '../../../src/experiment/run-one.js';
import { runCalibration } from '../../../src/experiment/calibrate/run-calibrate.js';

const WORLD = (rate: string, mean: string) => `name: round-trip
horizon: 10m
seed: 1
measures: { bucket: 20s, hold: 1m }
clients:
  app:
    clients: 20000
    arrivals: { kind: constant, rate: ${rate} }
    retry: { maxAttempts: 3, timeout: 1s, backoff: { kind: exponential, base: 200ms, multiplier: 2, max: 2s, jitter: full } }
server:
  slots: 4
  queue: 50
  serviceTime: { kind: exponential, mean: ${mean} }
faults:
  - { kind: capacity-cut, at: 3m, duration: 1m, slots: 0 }
`;

const CALIBRATE = `observed:
  requests: { file: observed.csv, format: csv, columns: { value: attempts }, series: attempts, unit: per-second }
  success: { file: observed.csv, format: csv, columns: { value: success }, series: success_ratio, unit: ratio }
  p50: { file: observed.csv, format: csv, columns: { value: p50 }, series: latency_p50_ms, unit: ms }
calibrate:
  parameters:
    clients.app.arrivals.rate: { from: 10/s, to: 40/s }
    server.serviceTime.mean: { from: 50ms, to: 200ms }
  seeds: 3
  budget: 40
  intervalSeeds: 12
`;

const TRUTH = [20, 0.1];
const REPETITIONS = 20;

describe('calibrate, round trip', () => {
  it(`recovers a known world's parameters within their 95% intervals in at least 18 of ${REPETITIONS} incidents`, async () => {
    const covered = [0, 0];
    const lines: string[] = [];
    for (let r = 0; r < REPETITIONS; r++) {
      const dir = mkdtempSync(join(tmpdir(), `rs-round-trip-${r}-`));
      const truth = loadScenario(WORLD('20/s', '100ms'), join(dir, 'truth.yaml'));
      const run = runOne(truth.base, 'base', 0, 5000 + r);
      const rows = ['time,attempts,success,p50'];
      run.columns.attempts.forEach((a, i) => rows.push(`${i * run.bucketS},${a / run.bucketS},${run.columns.success_ratio[i]},${run.columns.latency_p50_ms[i]}`));
      writeFileSync(join(dir, 'observed.csv'), `${rows.join('\n')}\n`);
      writeFileSync(join(dir, 'team.yaml'), WORLD('26/s', '130ms') + CALIBRATE);
      const loaded = loadScenarioFile(join(dir, 'team.yaml'));
      const out = await runCalibration(loaded, loaded.calibrate!, { workers: 2 });
      expect(out.partial).toBe(false);
      out.parameters.forEach((p, a) => {
        expect(p.interval!.low).toBeLessThanOrEqual(p.value);
        expect(p.interval!.high).toBeGreaterThanOrEqual(p.value);
        if (p.interval!.low <= TRUTH[a] && TRUTH[a] <= p.interval!.high) covered[a]++;
      });
      lines.push(`incident ${r}: ${out.parameters.map((p) => `${p.parameter} ${p.value.toPrecision(4)} [${p.interval!.low.toPrecision(4)}, ${p.interval!.high.toPrecision(4)}]`).join(', ')}`);
    }
    console.log(`${lines.join('\n')}\ncovered ${covered.join(' and ')} of ${REPETITIONS}`);
    for (const c of covered) expect(c).toBeGreaterThanOrEqual(Math.ceil(0.9 * REPETITIONS));
  }, 3_600_000);
});
