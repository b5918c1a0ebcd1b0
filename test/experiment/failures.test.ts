/**
 * A run that throws is reported with its variant, point and seed, and every other run's
 * result is still delivered and kept: on the calling thread (workers 0) and on the pool
 * (workers 2). Workers 1 was once the calling thread; it is now a pool of one thread, the
 * same code as two (runOnPool), so the calling thread's path is the one tried beside the pool.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runTasks } from '../../src/experiment/pool.js';
import type { RunTask } from '../../src/experiment/worker.js';
import type { RunResult } from '../../src/experiment/run-one.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import type { Scenario } from '../../src/scenario/schema.js';
import { summaryText, seriesText } from '../helpers/outputs.js';
import { runsJson } from '../../src/experiment/runs-json.js';

// 2 variants x 2 sweep points x 2 seeds = 8 quick runs.
const SCENARIO = `
name: failures
horizon: 3m
seeds: 2
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 60/s }
    retry: { maxAttempts: 3, timeout: 1s }
server:
  slots: 8
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 70s, duration: 10s }
sweep:
  - parameter: faults[0].duration
    values: [10s, 20s]
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 10 } }
expectations:
  - variant: short-queue
    attemptsPerAction: { atMost: 3 }
`;

const loaded = loadScenario(SCENARIO, 'failures.yaml');
const BROKEN = {} as unknown as Scenario; // not a scenario: the simulation throws

function tasks(): RunTask[] {
  const out: RunTask[] = [];
  for (const v of loaded.variants) {
    for (const p of loaded.points) {
      for (const seed of [1, 2]) out.push({ index: out.length, variant: v.name, point: p.index, seed, scenario: v.points[p.index] });
    }
  }
  return out;
}

async function collect(list: RunTask[], workers: number) {
  const results = new Map<number, RunResult>();
  const errors: Array<{ task: RunTask; error: Error }> = [];
  await runTasks(list, workers, new AbortController().signal, {
    onResult: (task, result) => {
      expect(results.has(task.index), `result of task ${task.index} delivered twice`).toBe(false);
      results.set(task.index, result);
    },
    onError: (task, error) => errors.push({ task, error }),
  });
  return { results, errors };
}

describe.each([0, 2])('runTasks with workers %i and broken tasks', (workers) => {
  it('calls onError once per broken task (first, middle, last) with that task, and delivers every other task\'s result once', async () => {
    const list = tasks();
    for (const bad of [0, 5, 7]) list[bad] = { ...list[bad], scenario: BROKEN };
    const { results, errors } = await collect(list, workers);

    expect(errors.map((e) => e.task.index).sort()).toEqual([0, 5, 7]);
    const middle = errors.find((e) => e.task.index === 5)!;
    expect(middle.task).toMatchObject({ variant: 'short-queue', point: 0, seed: 2 });
    for (const { error } of errors) {
      expect(error).toBeInstanceOf(Error);
      expect(error.message.length).toBeGreaterThan(0);
    }

    expect([...results.keys()].sort()).toEqual([1, 2, 3, 4, 6]);
    for (const [index, r] of results) {
      expect({ variant: r.variant, point: r.point, seed: r.seed }).toEqual({ variant: list[index].variant, point: list[index].point, seed: list[index].seed });
      expect(r.summary.measures.attempts).toBeGreaterThan(0);
    }
  });
});

/** The loaded scenario with one (variant, point) replaced by something that cannot run. */
function withBrokenPoint(variant: string, point: number): LoadedScenario {
  return {
    ...loaded,
    variants: loaded.variants.map((v) => (v.name === variant ? { ...v, points: v.points.map((s, i) => (i === point ? BROKEN : s)) } : v)),
  };
}

describe('runExperiment with a run that throws', () => {
  const broken = withBrokenPoint('short-queue', 1);
  const byWorkers = new Map<number, ExperimentResult>();

  beforeAll(async () => {
    byWorkers.set(0, await runExperiment(broken, { workers: 0 }));
    byWorkers.set(2, await runExperiment(broken, { workers: 2 }));
  });

  it.each([0, 2])('workers %i: lists the failures with variant, point and seed, keeps the other results, and is partial', (workers) => {
    const x = byWorkers.get(workers)!;
    expect(x.failures.map(({ message: _, ...f }) => f)).toEqual([
      { index: 6, variant: 'short-queue', point: 1, seed: 1 },
      { index: 7, variant: 'short-queue', point: 1, seed: 2 },
    ]);
    for (const f of x.failures) expect(f.message.length).toBeGreaterThan(0);
    expect(x.partial).toBe(true);
    expect(Array.from(x.results, Boolean)).toEqual([true, true, true, true, true, true, false, false]);

    // The failed point has no runs (and is not checked); the others are aggregated as usual.
    const sq = x.variants.find((v) => v.name === 'short-queue')!;
    expect(sq.points.map((p) => p.runs)).toEqual([2, 0]);
    expect(x.expectations.map((e) => e.at)).toEqual([{ 'faults[0].duration': '10s' }]);

    const summary = JSON.parse(summaryText(x));
    expect(summary.partial).toBe(true);
    expect(summary.runsFinished).toBe(6);
    expect(summary.failedRuns.map((f: { variant: string; point: number; seed: number }) => [f.variant, f.point, f.seed])).toEqual([
      ['short-queue', 1, 1],
      ['short-queue', 1, 2],
    ]);
    const runs = JSON.parse(runsJson(x));
    expect(runs.interrupted).toBe(true);
    expect(runs.failures).toHaveLength(2);
  });

  it('gives the same failures and the same bytes on the calling thread and on two workers', () => {
    const [a, b] = [byWorkers.get(0)!, byWorkers.get(2)!];
    expect(b.failures).toEqual(a.failures);
    expect(runsJson(b)).toBe(runsJson(a));
    expect(summaryText(b)).toBe(summaryText(a));
  });
});
