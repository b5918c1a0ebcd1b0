/**
 * A run taken from another experiment's finished run (run-reuse.ts, what `diff` does for the
 * head's unchanged variants) is the run it replaces, byte for byte; a change anywhere a run
 * reads makes it simulate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { FinishedRuns, runKey } from '../../src/experiment/run-reuse.js';
import { MEASURES, MeasureRegistry } from '../../src/measures/registry.js';
import { summaryText, seriesText } from '../helpers/outputs.js';
import { runsJson } from '../../src/experiment/runs-json.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOutputs } from '../../src/report/write.js';
import { diffCommand } from '../../src/cli/diff-command.js';

// 2 variants x 2 sweep points x 2 seeds = 8 short runs.
const scenario = (o: { deadlines?: string; question?: string } = {}) => `
name: reuse
question: ${o.question ?? 'Which recovers?'}
horizon: 3m
seeds: 2
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 80/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 8s, jitter: full } }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 1m, duration: 10s }
sweep:
  - parameter: faults[0].duration
    values: [10s, 30s]
variants:
  retries: {}
  deadlines:
    overlay: { clients: { app: { retry: { maxAttempts: 4, timeout: 1s, deadline: ${o.deadlines ?? '3s'} } } } }
`;

const load = (text: string) => loadScenario(text, 'reuse.yaml');
const files = (x: ExperimentResult) => ({ summary: summaryText(x), runs: runsJson(x), csv: seriesText(x) });

const finishedRuns = (x: ExperimentResult, measures: MeasureRegistry = x.measures) => FinishedRuns.of({ ...x, measures });

describe('runs taken from a finished experiment', () => {
  let base: ExperimentResult;
  beforeAll(async () => {
    base = await runExperiment(load(scenario()), { workers: 0 });
  });

  it('a head that changes one variant simulates only that variant, and gives the bytes it would have simulated', async () => {
    const head = load(scenario({ deadlines: '2s', question: 'Which recovers, with a 2 s deadline?' }));
    let simulated = -1, reused = -1;
    const taken = await runExperiment(head, { workers: 0, reuse: finishedRuns(base), onStart: (planned, _s, r) => { simulated = planned; reused = r; } });
    expect(simulated).toBe(4); // the deadlines variant, 2 points x 2 seeds
    expect(reused).toBe(4); // retries: unchanged (a new question is not read by any run)
    const fresh = await runExperiment(head, { workers: 0 });
    expect(files(taken)).toEqual(files(fresh));
    // And the change is real: the changed variant's runs differ from the base's.
    expect(runsJson(taken)).not.toEqual(runsJson(base));
  });

  it('an unchanged head simulates nothing', async () => {
    let simulated = -1;
    const again = await runExperiment(load(scenario()), { workers: 0, reuse: finishedRuns(base), onStart: (planned) => { simulated = planned; } });
    expect(simulated).toBe(0);
    expect(files(again)).toEqual(files(base));
  });

  it('is not used when the measures differ (a run result is the measures computed from it)', async () => {
    let simulated = -1;
    const other = new MeasureRegistry(MEASURES.all); // the same measures, but not the registry the runs were computed with
    await runExperiment(load(scenario()), { workers: 0, reuse: finishedRuns(base, other), onStart: (planned) => { simulated = planned; } });
    expect(simulated).toBe(8);
  });
});

describe('runKey', () => {
  const s = load(scenario()).variants[0].points[0];
  it('tells the seed, any field a run reads, and every number apart, Infinity and -0 included', () => {
    expect(runKey(s, 1)).toBe(runKey(structuredClone(s), 1));
    expect(runKey(s, 1)).not.toBe(runKey(s, 2));
    expect(runKey({ ...s, horizon: s.horizon + 1 }, 1)).not.toBe(runKey(s, 1));
    const server = s.server;
    expect(server.deadline).toBe(Infinity);
    expect(runKey({ ...s, server: { ...server, deadline: Infinity } }, 1)).not.toBe(runKey({ ...s, server: { ...server, deadline: null as unknown as number } }, 1));
    expect(runKey({ ...s, server: { ...server, failFastTime: -0 } }, 1)).not.toBe(runKey({ ...s, server: { ...server, failFastTime: 0 } }, 1));
  });

  it('leaves out what no run reads: the prose, the checks, the experiment around the run', () => {
    const dressed = { ...s, question: 'another', description: 'more words', seed: 99, seeds: 7, expectations: [], compare: undefined, variants: undefined };
    expect(runKey(dressed, 1)).toBe(runKey(s, 1));
  });
});

describe('diff against a results folder', () => {
  // The base as `run --out` leaves it; the head changes the deadlines variant only.
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rs-reuse-'));
    writeOutputs(await runExperiment(load(scenario()), { workers: 0 }), join(dir, 'base'));
    writeFileSync(join(dir, 'head.yaml'), scenario({ deadlines: '2s' }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const diffLines = async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (line: string) => err.push(line), progressStream: process.stderr };
    await diffCommand({ base: join(dir, 'base'), head: join(dir, 'head.yaml'), json: true, workers: 1 }, io);
    return err.join('\n');
  };

  it('takes the runs its runs.json keeps', async () => {
    expect(await diffLines()).toMatch(/head: running \S+head\.yaml, 4 run\(s\) on 1 worker\(s\); 4 run\(s\) unchanged from the base/);
  });

  it('simulates every run when runs.json cannot be verified (edited after it was written)', async () => {
    const file = join(dir, 'base', 'runs.json');
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('"eventsProcessed":', '"eventsProcessed":1');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const lines = await diffLines();
    expect(lines).toMatch(/head: running \S+head\.yaml, 8 run\(s\) on 1 worker\(s\)$/m);
    expect(lines).not.toMatch(/taken from it/);
  });
});
