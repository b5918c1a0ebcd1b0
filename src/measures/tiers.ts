/**
 * Per-tier measures (issue 14): how each service of a graph fared, and how much of the
 * users' load reached it. Declared like every measure (key, label, doc, unit, better
 * direction, how it folds across seeds) so aggregation, summary.json and the docs read the
 * same declarations; they compute over one tier of one run (TierView) instead of a set of
 * users, which is why they are a registry of their own. A run without services has no tiers.
 */
import type { RunRecord, TierRecord } from '../model/series.js';
import { defineMeasure, type MeasureDescriptor } from './measure.js';
import type { MeasureSettings } from './settings.js';

/** One tier of one run, with the edge's user actions it is measured against. */
export class TierView {
  constructor(
    readonly tier: TierRecord,
    /** User actions started at the edge per bucket (every population). */
    readonly edgeActions: Float64Array,
    readonly bucketS: number,
    /** The pre-fault window the tier's 1x load is read from: [warmup, first fault). */
    readonly baselineFromS: number,
    readonly baselineToS: number,
  ) {}

  static all(record: RunRecord, settings: MeasureSettings): TierView[] {
    const firstFault = record.faults.reduce((t, f) => Math.min(t, f.startS), record.horizonS);
    return (record.tiers ?? []).map((t) => new TierView(t, record.series.actionsStarted, record.series.bucketS, settings.warmupS, firstFault));
  }

  get edgeActionsTotal(): number {
    return this.edgeActions.reduce((a, b) => a + b, 0);
  }

  /** Mean attempts per bucket at this tier in the pre-fault window (null when the window holds no whole bucket). */
  get baselineAttempts(): number | null {
    const from = Math.ceil(this.baselineFromS / this.bucketS - 1e-9);
    const to = Math.floor(this.baselineToS / this.bucketS + 1e-9);
    if (to <= from) return null;
    let sum = 0;
    for (let b = from; b < to; b++) sum += this.tier.attempts[b];
    return sum / (to - from);
  }
}

/** A per-tier measure: a measure's declaration, computed over one tier. */
export interface TierMeasure extends Omit<MeasureDescriptor, 'compute'> {
  computeTier(view: TierView): number | null;
}

function defineTierMeasure<const K extends string>(d: Omit<MeasureDescriptor<K>, 'compute' | 'scope'> & { computeTier(view: TierView): number | null }): TierMeasure {
  // Checked like any measure; a tier measure is the server's (whoever sent the load).
  const checked = defineMeasure({ ...d, scope: 'server', compute: () => null });
  return Object.freeze({ ...checked, computeTier: d.computeTier });
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

export const tierAmplification = defineTierMeasure({
  key: 'tierAmplification',
  label: 'amplification',
  doc: 'Attempts that reached this tier per user action started at the edge, over the run (1 at the edge for users who try once; 27 at the third tier when each of three hops tries three times and the bottom fails); null without user actions.',
  unit: 'number',
  better: 'lower',
  aggregate: 'mean',
  computeTier: (v) => ratio(v.tier.totals.attempts, v.edgeActionsTotal),
});

export const tierPeakAmplification = defineTierMeasure({
  key: 'tierPeakAmplification',
  label: 'peak amplification',
  doc: 'The highest, over buckets with user actions, of the attempts that reached this tier per user action started at the edge in the same bucket; null without user actions.',
  unit: 'number',
  better: 'lower',
  aggregate: 'mean',
  computeTier: (v) => {
    let best: number | null = null;
    for (let b = 0; b < v.edgeActions.length; b++) {
      if (v.edgeActions[b] <= 0) continue;
      const x = v.tier.attempts[b] / v.edgeActions[b];
      if (best === null || x > best) best = x;
    }
    return best;
  },
});

export const tierPeakLoadMultiple = defineTierMeasure({
  key: 'tierPeakLoadMultiple',
  label: 'peak load',
  doc: 'The busiest bucket\'s attempts at this tier over its mean per bucket before the first fault (after the warm-up); null when that window holds no whole bucket or no attempt.',
  unit: 'multiple',
  better: 'lower',
  aggregate: 'mean',
  computeTier: (v) => {
    const base = v.baselineAttempts;
    if (base === null || base <= 0) return null;
    return v.tier.attempts.reduce((m, x) => (x > m ? x : m), 0) / base;
  },
});

export const tierRetryShare = defineTierMeasure({
  key: 'tierRetryShare',
  label: 'retries',
  doc: 'Share of the attempts that reached this tier that were retries (of its callers\' layers); null without attempts.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  range: { max: 1 },
  computeTier: (v) => ratio(v.tier.totals.retries, v.tier.totals.attempts),
});

export const tierSuccess = defineTierMeasure({
  key: 'tierSuccess',
  label: 'success',
  doc: 'Share of the calls to this tier that ended (edge: user actions) that succeeded, after their retry layers; null when none ended.',
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  range: { max: 1 },
  computeTier: (v) => ratio(v.tier.totals.callsOk, v.tier.totals.callsOk + v.tier.totals.callsFailed),
});

export const tierQueueWaitS = defineTierMeasure({
  key: 'tierQueueWaitS',
  label: 'queue wait',
  doc: 'Mean time an attempt served by this tier waited in its queue; null when it served none.',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  // As the server's queue wait: 10 ms or 5%.
  tie: { relative: 0.05, absolute: 0.01 },
  computeTier: (v) => ratio(v.tier.totals.queueWaitS, v.tier.totals.served),
});

export const tierWastedWorkShare = defineTierMeasure({
  key: 'tierWastedWorkShare',
  label: 'wasted work',
  doc: 'Share of this tier\'s slot time (waiting on its own calls included) spent on attempts whose caller had stopped waiting; null without work.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  range: { max: 1 },
  computeTier: (v) => ratio(v.tier.totals.wastedWorkS, v.tier.totals.workS),
});

/** Every per-tier measure, in the order the tables show them. */
export const TIER_MEASURES: readonly TierMeasure[] = [
  tierAmplification,
  tierPeakAmplification,
  tierPeakLoadMultiple,
  tierRetryShare,
  tierSuccess,
  tierQueueWaitS,
  tierWastedWorkShare,
];

/** One tier's values in one run. */
export interface TierOutcome {
  name: string;
  /** The services that call it (empty for the edge). */
  callers: string[];
  measures: Record<string, number | null>;
}

export function tierOutcomes(record: RunRecord, settings: MeasureSettings): TierOutcome[] | undefined {
  if (!record.tiers) return undefined;
  return TierView.all(record, settings).map((v) => {
    const measures: Record<string, number | null> = {};
    for (const m of TIER_MEASURES) {
      const x = m.computeTier(v);
      measures[m.key] = x !== null && Number.isFinite(x) ? x : null;
    }
    return { name: v.tier.name, callers: v.tier.callers, measures };
  });
}
