/**
 * A results folder with an observed incident beside the simulated one, for the report tests:
 * a small world (a capacity cut at 2 min of a 5-minute run, 5 s buckets) and three observed
 * series written beside it (a success ratio, a request rate and a p99 latency, made up: the
 * success ratio dips from 1:30 to 3:00 of the file, which starts 30 s before the run).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { writeOutputs } from '../../src/report/write.js';
import { tempDir, type Fixture } from './fixtures.js';

export const OBSERVED_WORLD = `name: observed
horizon: 5m
measures: { bucket: 5s, hold: 30s, warmup: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 30/s }
    retry: { maxAttempts: 2, timeout: 1s, backoff: { kind: exponential, base: 200ms, max: 2s } }
server: { slots: 6, queue: 40, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: capacity-cut, at: 2m, duration: 40s, slots: 1 }
observed:
  ok:
    file: ok.csv
    format: csv
    series: success_ratio
    unit: percent
    t0: 2026-12-07T10:00:30Z
  requests:
    file: requests.csv
    format: csv
    series: attempts
    unit: per-second
    t0: 2026-12-07T10:00:30Z
  p99:
    file: p99.csv
    format: csv
    series: latency_p99_ms
    unit: ms
    t0: 2026-12-07T10:00:30Z
variants:
  retries: {}
  no-retries:
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
`;

/** The file's rows: 10-second intervals from 10:00:00Z for 6 minutes. */
function csv(value: (s: number) => number): string {
  const rows = ['time,value'];
  for (let s = 0; s < 360; s += 10) rows.push(`${new Date(Date.UTC(2026, 11, 7, 10, 0, s)).toISOString().replace('.000Z', 'Z')},${value(s)}`);
  return rows.join('\n') + '\n';
}

export async function observedFolder(): Promise<Fixture> {
  const dir = tempDir('rs-observed-');
  writeFileSync(join(dir, 'world.yaml'), OBSERVED_WORLD);
  const dip = (s: number) => s >= 150 && s < 180;
  writeFileSync(join(dir, 'ok.csv'), csv((s) => (dip(s) ? 40 : 99.5)));
  writeFileSync(join(dir, 'requests.csv'), csv((s) => (dip(s) ? 45 : 30)));
  writeFileSync(join(dir, 'p99.csv'), csv((s) => (dip(s) ? 1000 : 250)));
  const x = await runExperiment(loadScenarioFile(join(dir, 'world.yaml')), { workers: 0 });
  const out = join(dir, 'out');
  const { bundle } = writeOutputs(x, out);
  return { dir: out, x, bundle };
}
