/**
 * summary.json: the machine-readable result of an experiment, per variant. It holds no
 * wall-clock time, date or host detail, so the same scenario and seed give the same bytes.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import { measureSettings } from '../experiment/settings.js';
import { bucketWidth } from '../model/simulate.js';
import { roundDeep } from './numbers.js';

export function summaryJson(x: ExperimentResult): string {
  const base = x.loaded.base;
  const seeds = [...new Set(x.runs.map((r) => r.seed))];
  const doc = {
    scenario: base.name,
    ...(base.question ? { question: base.question } : {}),
    partial: x.partial,
    runsPlanned: x.runs.length,
    runsFinished: x.results.filter(Boolean).length,
    horizonS: base.horizon,
    bucketS: bucketWidth(base),
    seeds,
    measureSettings: measureSettings(base),
    variants: x.variants.map((v) => ({
      name: v.name,
      ...(v.description ? { description: v.description } : {}),
      runs: v.runs,
      recoveredFraction: v.recoveredFraction,
      ...v.measures,
      perSeed: v.perSeed,
    })),
  };
  return JSON.stringify(roundDeep(doc), null, 2) + '\n';
}
