/**
 * Every measure, in the order the writers list them. Adding a measure is one file (or a
 * declaration in a family's file) and one line here; summaries, aggregation, expectations,
 * the ranking, every writer and docs/measures.md take it from this list.
 */
import type { MeasureDescriptor } from './measure.js';
import { healthyBeforeTrigger, recovered, recoveredAtS, recoveryTimeS } from './recovery.js';
import { perceivedOutageS, relapses } from './outage.js';
import { retryWaves } from './waves.js';
import { excessAttempts, peakLoadMultiple, peakRetryShare, retryShareAtPeak } from './load.js';
import { attemptsPerAction, attemptsPerActionMax, attemptsPerActionP99 } from './amplification.js';
import { attempts, meanQueueWaitS, utilisation, wastedWorkS, wastedWorkShare } from './work.js';
import {
  actionsAbandoned, actionsFailed, actionsOk, actionsStarted, actionsStayedAway, peopleLeft, journeysStarted, journeyCompletion, journeyTimeMean, answered400, answered426, answered429, deadLettered,
  futileRetryShare, goodputMean, originalSuccessAfterFault, retryShare, successRatio,
} from './users.js';
import {
  actionLatencyMeanS, actionLatencyP50S, actionLatencyP95S, actionLatencyP99S,
  attemptLatencyMeanS, attemptLatencyP50S, attemptLatencyP95S, attemptLatencyP99S,
} from './latency.js';
import { detectedRetryShare, detectionFalsePositiveShare, fingerprintTableBytes } from './detection.js';
import { baselineRate, healthWindowS, lastTriggerEndS, preFaultLoadMultiple, preFaultSuccessRatio } from './context.js';
import { partnerExcessShare, partnerPeakMultiple, partnerServedShare } from './partner.js';
import { rateLimitStoreTimeouts, rateLimitStoreWaitMeanS } from './rate-limit-store.js';

export const BUILTIN_MEASURES = [
  recovered,
  recoveryTimeS,
  healthyBeforeTrigger,
  perceivedOutageS,
  relapses,
  retryWaves,
  originalSuccessAfterFault,
  peakLoadMultiple,
  excessAttempts,
  peakRetryShare,
  retryShareAtPeak,
  attemptsPerAction,
  attemptsPerActionP99,
  attemptsPerActionMax,
  wastedWorkS,
  wastedWorkShare,
  successRatio,
  partnerServedShare,
  partnerExcessShare,
  partnerPeakMultiple,
  goodputMean,
  actionLatencyP50S,
  actionLatencyP95S,
  actionLatencyP99S,
  actionLatencyMeanS,
  attemptLatencyP50S,
  attemptLatencyP95S,
  attemptLatencyP99S,
  attemptLatencyMeanS,
  retryShare,
  futileRetryShare,
  actionsStarted,
  actionsOk,
  actionsFailed,
  actionsAbandoned,
  peopleLeft,
  actionsStayedAway,
  journeysStarted,
  journeyCompletion,
  journeyTimeMean,
  deadLettered,
  answered400,
  answered426,
  answered429,
  utilisation,
  meanQueueWaitS,
  attempts,
  detectedRetryShare,
  detectionFalsePositiveShare,
  fingerprintTableBytes,
  rateLimitStoreWaitMeanS,
  rateLimitStoreTimeouts,
  baselineRate,
  preFaultSuccessRatio,
  preFaultLoadMultiple,
  lastTriggerEndS,
  recoveredAtS,
  healthWindowS,
] as const;

export type BuiltinMeasureKey = (typeof BUILTIN_MEASURES)[number]['key'];

/** One run's value of every measure, by key: a number, or null where the measure's doc says so. */
export type MeasureValues = { [K in BuiltinMeasureKey]: number | null } & Record<string, number | null>;

/** An ordered, key-unique list of measures, with the lookups the writers need. */
export class MeasureRegistry {
  private readonly byKey: Map<string, MeasureDescriptor>;

  constructor(readonly all: readonly MeasureDescriptor[]) {
    this.byKey = new Map();
    for (const m of all) {
      if (this.byKey.has(m.key)) throw new Error(`two measures named ${m.key}`);
      this.byKey.set(m.key, m);
    }
  }

  get keys(): string[] {
    return this.all.map((m) => m.key);
  }

  get(key: string): MeasureDescriptor | undefined {
    return this.byKey.get(key);
  }

  /** The measures shown per population and per route. */
  get perPopulation(): MeasureDescriptor[] {
    return this.all.filter((m) => m.perPopulation);
  }

  /** This registry and one more measure (an extension, or a test's toy measure), listed last. */
  with(extra: MeasureDescriptor): MeasureRegistry {
    return new MeasureRegistry([...this.all, extra]);
  }
}

/** The measures retrystorm ships. */
export const MEASURES = new MeasureRegistry(BUILTIN_MEASURES);
