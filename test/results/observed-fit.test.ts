/**
 * The fit of an observed incident (observed: in a scenario) to the simulated one: the
 * simulated series of a run written to a file and read back as "observed" fit it exactly
 * (NRMSE 0, the same moment of recovery); the same series shifted later by 20 s fit it worse
 * (NRMSE > 0) and recover exactly 20 s later. Small world (50 actions/s, 6 minutes, 1 s
 * buckets and health window, so the observed intervals are the simulated recovery's cells).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import type { Results } from '../../src/results/results.js';

const WORLD = `name: fit
horizon: 6m
seed: 7
measures: { bucket: 1s, healthWindow: 1s, hold: 30s, warmup: 30s, loadExcess: 1, successRatioDrop: 0.2 }
clients:
  app:
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 2, timeout: 1s, backoff: { kind: exponential, base: 200ms, max: 2s } }
server: { slots: 8, queue: 60, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: capacity-cut, at: 90s, duration: 40s, slots: 2 }
`;

const OBSERVED = (t0: number) => `
observed:
  ok:
    file: ok.csv
    format: csv
    series: success_ratio
    unit: ratio
    t0: ${t0}
  load:
    file: load.csv
    format: csv
    series: attempts
    unit: per-step
    t0: ${t0}
  p99:
    file: p99.csv
    format: csv
    series: latency_p99_ms
    unit: s
    columns: { time: minute, value: seconds }
    t0: ${t0}
`;

let dir: string;
let sim: ExperimentResult;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-observed-'));
  writeFileSync(join(dir, 'world.yaml'), WORLD);
  sim = await runExperiment(loadScenarioFile(join(dir, "world.yaml")), { workers: 0 });
  const cols = sim.results[0]!.columns;
  const csv = (time: string, value: string, f: (x: number) => number, col: string) =>
    `${time},${value}\n` + cols.t_s.map((t, i) => `${t},${Number.isFinite(cols[col][i]) ? f(cols[col][i]) : ''}`).join('\n') + '\n';
  writeFileSync(join(dir, 'ok.csv'), csv('time', 'value', (x) => x, 'success_ratio'));
  writeFileSync(join(dir, 'load.csv'), csv('time', 'value', (x) => x, 'attempts'));
  writeFileSync(join(dir, 'p99.csv'), csv('minute', 'seconds', (x) => x / 1000, 'latency_p99_ms'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fitted(t0: number): Promise<NonNullable<Results['observed']>> {
  const file = join(dir, `with-${t0}.yaml`);
  writeFileSync(file, WORLD + OBSERVED(t0));
  const r = buildResults(await runExperiment(loadScenarioFile(file), { workers: 0 }));
  return r.observed!;
}

describe('the fit of observed series', () => {
  it('an observed series that is the simulated one fits it exactly, and recovers when it did', async () => {
    const o = await fitted(0);
    const sec = sim.variants[0].points[0].measures.recoveredAtS.value;
    expect(sec).not.toBeNull();
    expect(sec!).toBeGreaterThanOrEqual(130); // not before the fault's end
    expect(o.normalisation).toBe('observed-mean');
    expect(o.fits.map((f) => f.name)).toEqual(['ok', 'load', 'p99']);
    for (const f of o.fits) {
      expect(f.intervals, f.name).toBeGreaterThan(350);
      expect(f.nrmse.value, f.name).toBeCloseTo(0, 5);
    }
    const ok = o.fits.find((f) => f.name === 'ok')!;
    expect(ok.recovery).toEqual({ observedAtS: sec, simulatedAtS: { value: sec, lo: null, hi: null }, differenceS: 0 });
    expect(o.fits.find((f) => f.name === 'load')!.recovery).toBeNull();
    // The overlay's values are the simulated column's, in its chart unit (attempts per second).
    const load = o.series.find((s) => s.name === 'load')!;
    expect(load.startS).toBe(0);
    expect(load.values.slice(0, 5)).toEqual(sim.results[0]!.columns.attempts.slice(0, 5));
  });

  it('the same series 20 s later fits worse and recovers exactly 20 s later', async () => {
    const o = await fitted(-20);
    const sec = sim.variants[0].points[0].measures.recoveredAtS.value!;
    for (const f of o.fits) expect(f.nrmse.value!, f.name).toBeGreaterThan(0.02);
    const ok = o.fits.find((f) => f.name === 'ok')!;
    expect(ok.recovery!.observedAtS).toBe(sec + 20);
    expect(ok.recovery!.differenceS).toBe(-20);
    // Compared on the 340 whole seconds both cover (the file's last 20 s are after the run).
    expect(ok.intervals).toBe(340);
  });
});
