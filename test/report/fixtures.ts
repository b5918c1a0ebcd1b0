/**
 * Results folders for the report tests, made the way users make them: a small scenario
 * simulated in-process (a few seconds at most) and written by writeOutputs. `small` is one
 * point, two variants, one seed; `full` has a sweep, two seeds, an internal and an attacker population, a
 * dead-lettering queue layer, expectations (some failing) and a ranking at one point, where
 * "retries" never recovers from the capacity cut, "no-retries" drains its queue slowly and
 * "short-queue" is back at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { writeOutputs } from '../../src/report/write.js';
import type { ResultsBundle } from '../../src/results/bundle.js';

const made: string[] = [];

/** A fresh temporary folder, removed by cleanupFixtures. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made; call from afterAll. */
export function cleanupFixtures(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Fixture {
  dir: string;
  x: ExperimentResult;
  bundle: ResultsBundle;
}

/**
 * Experiments already simulated in this worker, by scenario text. Test files share their
 * worker's modules (`isolate: false`), and eight files ask for `full`: its simulation (about
 * 2 s of CPU) runs once per worker, and each file still gets a results folder of its own,
 * written afresh (the files remove theirs when they end). No test changes an experiment.
 */
const simulated = new Map<string, Promise<ExperimentResult>>();

/** Simulates `yaml` on the calling thread (once per worker) and writes its results folder. */
export async function experimentFolder(yaml: string, prefix = 'rs-fixture-'): Promise<Fixture> {
  const dir = join(tempDir(prefix), 'out');
  let run = simulated.get(yaml);
  if (!run) {
    run = runExperiment(loadScenario(yaml, 'fixture.yaml'), { workers: 0 });
    simulated.set(yaml, run);
    run.catch(() => simulated.delete(yaml)); // a failed run is tried again by the next file
  }
  const x = await run;
  const { bundle } = writeOutputs(x, dir);
  return { dir, x, bundle };
}

export const SMALL_YAML = `# a fixture
name: small
question: Does it come back?
description: Two variants, one fault.
horizon: 20m
measures: { bucket: 10s }
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 4s } }
server: { slots: 3, queue: unbounded, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - kind: capacity-cut
    at: 5m
    duration: 2m
    slots: 1
variants:
  retries:
    description: As shipped.
  no-retries:
    description: Never retry.
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
`;

export const FULL_YAML = `# a fixture with every part a report can show
name: full
question: Which policy brings the service back?
horizon: 20m
seeds: 2
measures: { bucket: 10s, hold: 1m }
clients:
  app:
    clients: 200
    arrivals: { kind: constant, rate: 22/s }
    identity: { route: login }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 200ms, max: 2s } }
  worker:
    role: internal
    clients: 20
    arrivals: { kind: constant, rate: 2/s }
    layers:
      queue: { maxAttempts: 2, deadLetter: true, backoff: { kind: constant, base: 2s } }
      http: { maxAttempts: 2, timeout: 1s }
  scraper:
    role: attacker
    clients: 10
    arrivals: { kind: constant, rate: 5/s }
    identity: { route: search }
server: { slots: 4, queue: unbounded, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: capacity-cut, at: 5m, duration: 1m, slots: 1 }
sweep:
  - { parameter: "faults[0].duration", values: [30s, 2m, 5m] }
variants:
  retries:
    description: As shipped.
  no-retries:
    description: Never retry.
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
  short-queue:
    description: A queue of 20.
    overlay: { server: { queue: 20 } }
expectations:
  - { variant: retries, at: { "faults[0].duration": 5m }, recoveryTimeS: { atMost: 1m } }
  - { variant: no-retries, recovered: { atLeast: 0.5 } }
compare: { baseline: retries, at: { "faults[0].duration": 2m } }
`;

export const small = () => experimentFolder(SMALL_YAML, 'rs-small-');
export const full = () => experimentFolder(FULL_YAML, 'rs-full-');
