/**
 * summary.json: the machine-readable result of an experiment. It holds no wall-clock time,
 * date or host detail, so the same scenario and seed give the same bytes. Without a sweep,
 * each variant carries its measures directly; with one, each variant has a `points` list.
 * The fields are documented in docs/measures.md.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import type { PointAggregate } from '../experiment/aggregate.js';
import type { RunResult } from '../experiment/run-one.js';
import { measureSettings } from '../experiment/settings.js';
import { bucketWidth } from '../model/simulate.js';
import { roundDeep } from './numbers.js';
import { experimentRanking } from './ranking.js';

export function summaryJson(x: ExperimentResult): string {
  const base = x.loaded.base;
  const swept = x.loaded.points.length > 1 || Object.keys(x.loaded.points[0]?.values ?? {}).length > 0;
  const faultsAt = (variant: string, point: number) =>
    x.runs.filter((r) => r.variant === variant && r.point === point).map((r) => x.results[r.index]).find((r): r is RunResult => !!r)?.faults ?? [];
  const point = (variant: string, p: PointAggregate) => ({
    ...(swept ? { point: p.point, values: p.values } : {}),
    runs: p.runs,
    recoveredFraction: p.recoveredFraction,
    ...p.measures,
    intervals: p.intervals,
    faults: faultsAt(variant, p.point),
    perSeed: p.perSeed,
  });
  const ranking = experimentRanking(x);
  const doc = {
    scenario: base.name,
    ...(base.question ? { question: base.question } : {}),
    partial: x.partial,
    ...(x.shard ? { shard: x.shard } : {}),
    runsPlanned: x.runs.length,
    runsFinished: x.results.filter(Boolean).length,
    failedRuns: x.failures,
    horizonS: base.horizon,
    bucketS: bucketWidth(base),
    seeds: [...new Set(x.runs.map((r) => r.seed))],
    ...(swept ? { sweep: { parameters: (base.sweep ?? []).map((s) => s.parameter), points: x.loaded.points } } : {}),
    measureSettings: measureSettings(base),
    expectations: x.expectations,
    ...(ranking ? { ranking } : {}),
    variants: x.variants.map((v) => ({
      name: v.name,
      ...(v.description ? { description: v.description } : {}),
      ...(swept ? { points: v.points.map((p) => point(v.name, p)) } : point(v.name, v.points[0])),
    })),
  };
  return JSON.stringify(roundDeep(doc), null, 2) + '\n';
}
