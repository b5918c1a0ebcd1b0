/**
 * The output contract of an experiment: the same scenario and seeds give the same bytes in
 * summary.json, runs.json and timeseries.csv whatever the number of workers and whatever
 * order the runs finish in (results are stored by expansion index, never by arrival).
 */
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment, assemble, type ExperimentResult } from '../../src/experiment/experiment.js';
import { runTasks } from '../../src/experiment/pool.js';
import type { RunResult } from '../../src/experiment/run-one.js';
import { summaryText, seriesText } from '../helpers/outputs.js';
import { runsJson } from '../../src/experiment/runs-json.js';

const ROOT = resolve(import.meta.dirname, '../..');

// 2 variants x 3 sweep points x 2 seeds = 12 runs of ~0.05 s each.
const SCENARIO = `
name: determinism
horizon: 5m
seeds: 2
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 8s, jitter: full } }
server:
  slots: 12
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 2m, duration: 10s }
sweep:
  - parameter: faults[0].duration
    values: [10s, 30s, 1m]
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 20 } }
expectations:
  - variant: short-queue
    attemptsPerAction: { atMost: 4 }
`;

const files = (x: ExperimentResult) => ({ summary: summaryText(x), runs: runsJson(x), csv: seriesText(x) });

// The calling thread (workers 0) against a pool of two threads: two execution paths that must
// give the same bytes. A pool of one thread against two is compared as processes below.
describe('runExperiment: the calling thread and two workers give the same bytes', () => {
  const loaded = loadScenario(SCENARIO, 'determinism.yaml');
  let one: ExperimentResult;
  let two: ExperimentResult;
  const arrivals: string[] = [];

  beforeAll(async () => {
    one = await runExperiment(loaded, { workers: 0 });
    two = await runExperiment(loaded, { workers: 2, onRun: (_done, _total, r) => arrivals.push(`${r.variant}/${r.point}/${r.seed}`) });
  });

  it('runs every run of the 2 x 3 x 2 expansion, without failures', () => {
    expect(one.runs).toHaveLength(12);
    for (const x of [one, two]) {
      expect(x.results.filter(Boolean)).toHaveLength(12);
      expect(x.failures).toEqual([]);
      expect(x.partial).toBe(false);
    }
    expect(arrivals).toHaveLength(12);
    expect(new Set(arrivals).size).toBe(12); // onRun once per run
  });

  it('the comparison is not vacuous: seeds and points give different series', () => {
    const r = one.results as RunResult[];
    expect(r[0].seed).not.toBe(r[1].seed);
    expect(r[0].columns.attempts).not.toEqual(r[1].columns.attempts); // two seeds, same point
    expect(r[0].faults).not.toEqual(r[2].faults); // two sweep points
  });

  it('summaryJson, runsJson and timeseriesCsv are byte-identical', () => {
    const a = files(one), b = files(two);
    expect(b.summary).toBe(a.summary);
    expect(b.runs).toBe(a.runs);
    expect(b.csv).toBe(a.csv);
    expect(JSON.parse(a.summary).expectations).toHaveLength(3);
  });

  it('assemble gives the same bytes when results arrive in another order (tasks handed out in reverse)', async () => {
    const scenarios = new Map(loaded.variants.map((v) => [v.name, v.points]));
    const tasks = one.runs.map((r) => ({ ...r, scenario: scenarios.get(r.variant)![r.point] })).reverse();
    const results: Array<RunResult | undefined> = new Array(one.runs.length);
    const order: number[] = [];
    const errors: string[] = [];
    await runTasks(tasks, 2, new AbortController().signal, {
      onResult: (task, result) => {
        order.push(task.index);
        results[task.index] = result;
      },
      onError: (task, error) => errors.push(`run ${task.index}: ${error.message}`),
    });
    expect(errors).toEqual([]);
    expect(order).toHaveLength(12);
    expect(order).not.toEqual([...order].sort((a, b) => a - b)); // really another order
    const x = assemble(loaded, one.runs, results, [], false);
    expect(files(x)).toEqual(files(one));
  });
});

// ── As processes: the CLI a user runs ───────────────────────────────────────

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-determinism-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliProcess(dir, args);

describe('retrystorm run --workers 1 vs --workers 2', () => {
  it('writes byte-identical summary.json, timeseries.csv and runs.json', async () => {
    const file = join(dir, 'determinism.yaml');
    writeFileSync(file, SCENARIO);
    const [a, b] = await Promise.all([
      cli('run', file, '--workers', '1', '--out', 'w1', '--quiet'),
      cli('run', file, '--workers', '2', '--out', 'w2', '--quiet'),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stdout).toMatch(/^determinism: 2 variant\(s\) x 3 sweep points x 2 seed\(s\)$/m);
    for (const name of ['summary.json', 'timeseries.csv', 'runs.json', 'scenario.yaml']) {
      const x = readFileSync(join(dir, 'w1', name), 'utf8');
      const y = readFileSync(join(dir, 'w2', name), 'utf8');
      expect(x.length, name).toBeGreaterThan(50);
      expect(y === x, `${name} differs between --workers 1 and --workers 2`).toBe(true);
    }
    const summary = JSON.parse(readFileSync(join(dir, 'w1', 'summary.json'), 'utf8'));
    expect(summary.runsFinished).toBe(12);
    expect(summary.partial).toBe(false);
  });
});
