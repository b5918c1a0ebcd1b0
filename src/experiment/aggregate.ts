/**
 * Folds the runs of each variant into one line of the comparison: with one seed, that
 * seed's measures; with several, the mean of each measure, the fraction of seeds that
 * recovered, and a recovery time only when every seed recovered (a mean over the seeds
 * that happened to recover would flatter a policy that sometimes never does).
 * Pure: results come in expansion order, whatever order they finished in.
 */
import type { RunSummary } from '../measures/measures.js';
import type { RunResult } from './run-one.js';

export interface VariantAggregate {
  name: string;
  description?: string;
  runs: number;
  recoveredFraction: number;
  measures: RunSummary;
  perSeed: Array<{ seed: number } & RunSummary>;
}

export function aggregateVariant(name: string, description: string | undefined, runs: RunResult[]): VariantAggregate {
  const summaries = runs.map((r) => r.summary);
  const recovered = summaries.filter((s) => s.recovered).length;
  return {
    name,
    ...(description ? { description } : {}),
    runs: runs.length,
    recoveredFraction: runs.length ? recovered / runs.length : 0,
    measures: summaries.length === 1 ? summaries[0] : meanSummary(summaries),
    perSeed: runs.map((r) => ({ seed: r.seed, ...r.summary })),
  };
}

function meanSummary(ss: RunSummary[]): RunSummary {
  const mean = (f: (s: RunSummary) => number | null): number | null => {
    const xs = ss.map(f);
    if (xs.some((x) => x === null)) return null;
    return (xs as number[]).reduce((a, b) => a + b, 0) / xs.length;
  };
  const m = (f: (s: RunSummary) => number) => mean(f) as number;
  const allRecovered = ss.every((s) => s.recovered);
  return {
    baselineRate: m((s) => s.baselineRate),
    preFaultSuccessRatio: mean((s) => s.preFaultSuccessRatio),
    preFaultLoadMultiple: mean((s) => s.preFaultLoadMultiple),
    lastFaultEndS: mean((s) => s.lastFaultEndS),
    recovered: allRecovered,
    recoveryTimeS: allRecovered ? mean((s) => s.recoveryTimeS) : null,
    perceivedOutageS: m((s) => s.perceivedOutageS),
    peakLoadMultiple: m((s) => s.peakLoadMultiple),
    peakRetryShare: m((s) => s.peakRetryShare),
    attemptsPerAction: {
      mean: m((s) => s.attemptsPerAction.mean),
      p99: m((s) => s.attemptsPerAction.p99),
      max: Math.max(...ss.map((s) => s.attemptsPerAction.max)),
    },
    wastedWorkS: m((s) => s.wastedWorkS),
    wastedWorkShare: m((s) => s.wastedWorkShare),
    successRatio: mean((s) => s.successRatio),
    goodputMean: m((s) => s.goodputMean),
    actionsStarted: m((s) => s.actionsStarted),
    actionsOk: m((s) => s.actionsOk),
    actionsFailed: m((s) => s.actionsFailed),
    attempts: m((s) => s.attempts),
    utilisation: m((s) => s.utilisation),
    meanQueueWaitS: m((s) => s.meanQueueWaitS),
  };
}
