/**
 * When is the service healthy, and when did it come back after the faults ended? These are
 * the measures that answer the project's question (does the fleet bring the service back,
 * or keep it down?), so the health rule is written once here and shared by recovery time,
 * the report's shading and anything else that asks "was this bucket healthy?".
 */
import type { RunRecord } from '../model/series.js';
import { baseline, bucketStartS, bucketWidths, derivedSeries, type Baseline, type MeasureSettings } from './derived.js';

/** The bounds a bucket must meet to be healthy, derived from the pre-fault reference. */
export interface HealthLimits {
  /** Success ratio at or above this. */
  minSuccessRatio: number;
  /** Offered load multiple at or below this; NaN when the baseline is 0 (the load test is then skipped). */
  maxLoadMultiple: number;
}

export function healthLimits(base: Baseline, settings: MeasureSettings): HealthLimits {
  // No action ended before the fault: there is nothing to compare with, so ask for the best
  // a service can do rather than accept anything.
  const ref = Number.isNaN(base.successRatio) ? 1 : base.successRatio;
  return {
    minSuccessRatio: ref - settings.successRatioDrop,
    maxLoadMultiple: base.loadMultiple * (1 + settings.loadExcess),
  };
}

/**
 * 1 where the bucket is healthy, 0 elsewhere. A bucket in which no user action ended is not
 * healthy: silence during an outage is not evidence of recovery.
 */
export function healthyBuckets(
  record: RunRecord,
  settings: MeasureSettings,
  base: Baseline = baseline(record, settings),
): Uint8Array {
  const d = derivedSeries(record.series, {
    baselineRate: base.rate,
    minAttemptsForShare: settings.minAttemptsForShare,
    horizonS: record.horizonS,
  });
  const lim = healthLimits(base, settings);
  const out = new Uint8Array(record.series.n);
  for (let i = 0; i < out.length; i++) {
    const sr = d.successRatio[i];
    const lm = d.offeredLoadMultiple[i];
    // `!(lm > max)` rather than `lm <= max`: when the baseline is 0 both sides are NaN and
    // the load condition cannot be judged, so it must not veto recovery on its own.
    out[i] = sr >= lim.minSuccessRatio && !(lm > lim.maxLoadMultiple) ? 1 : 0;
  }
  return out;
}

export interface Recovery {
  recovered: boolean;
  /** Seconds from the end of the last fault to the start of the lasting healthy run; null when not recovered. */
  recoveryTimeS: number | null;
  /** Absolute time (s) the lasting healthy run began; null when not recovered. */
  healthyFromS: number | null;
  /** max endS over faults; null when there are no faults. */
  lastFaultEndS: number | null;
}

/**
 * Recovery after the last fault: the first run of healthy buckets, all beginning at or after
 * the fault's end, that lasts at least `holdS` before the horizon. A shorter healthy stretch
 * is a relapse, not a recovery, even when the run ends during it: the simulation cannot
 * vouch for what it did not see. Resolution is one bucket.
 */
export function recovery(
  record: RunRecord,
  settings: MeasureSettings,
  base: Baseline = baseline(record, settings),
): Recovery {
  if (record.faults.length === 0) {
    return { recovered: true, recoveryTimeS: 0, healthyFromS: 0, lastFaultEndS: null };
  }
  let lastEnd = -Infinity;
  for (const f of record.faults) lastEnd = Math.max(lastEnd, f.endS);
  const s = record.series;
  const healthy = healthyBuckets(record, settings, base);
  let runStart = -1;
  for (let i = 0; i < s.n; i++) {
    const start = bucketStartS(s, i);
    if (start < lastEnd) continue;
    if (!healthy[i]) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = i;
    const end = Math.min((i + 1) * s.bucketS, record.horizonS);
    const from = bucketStartS(s, runStart);
    if (end - from >= settings.holdS) {
      return { recovered: true, recoveryTimeS: Math.max(0, from - lastEnd), healthyFromS: from, lastFaultEndS: lastEnd };
    }
  }
  return { recovered: false, recoveryTimeS: null, healthyFromS: null, lastFaultEndS: lastEnd };
}

/** What users saw in a bucket: the service up, down, or nothing (idle: no action started or ended). */
export const UP = 0, DOWN = 1, IDLE = 2;

/**
 * UP, DOWN or IDLE per bucket. Down: the bucket's success ratio is below the threshold, or
 * users started actions but none ended (they are waiting and nothing completes). A bucket
 * with no arrivals and no endings is idle, neither up nor down. Perceived outage and
 * relapses both read this, so they always agree on what "down" was.
 */
export function perceivedStates(record: RunRecord, settings: MeasureSettings): Uint8Array {
  // The baseline rate plays no part here; 1 avoids computing it.
  const d = derivedSeries(record.series, {
    baselineRate: 1,
    minAttemptsForShare: settings.minAttemptsForShare,
    horizonS: record.horizonS,
  });
  const out = new Uint8Array(record.series.n);
  for (let i = 0; i < out.length; i++) {
    const sr = d.successRatio[i];
    if (Number.isNaN(sr)) out[i] = record.series.actionsStarted[i] > 0 ? DOWN : IDLE;
    else out[i] = sr < settings.perceivedOutageThreshold ? DOWN : UP;
  }
  return out;
}

/** Seconds during which users saw the service as down (see perceivedStates). */
export function perceivedOutageS(record: RunRecord, settings: MeasureSettings): number {
  const states = perceivedStates(record, settings);
  const width = bucketWidths(record.series, record.horizonS);
  let total = 0;
  for (let i = 0; i < states.length; i++) if (states[i] === DOWN) total += width[i];
  return total;
}

/**
 * Re-collapses: how many times, after the last fault ended, users saw the service up for at
 * least `relapseUpS` and then down again. The story's "the service falls again with every
 * wave" read from the users' side: 0 for a service that came back and stayed, and also 0 for
 * one that never came back at all (it never rose to fall again). Requiring a sustained
 * up-stretch keeps a single lucky bucket inside a storm from counting as a recovery; idle
 * buckets are neutral, so a lull with no users in it is not mistaken for the service being up.
 */
export function relapses(record: RunRecord, settings: MeasureSettings): number {
  if (record.faults.length === 0) return 0;
  let lastEnd = -Infinity;
  for (const f of record.faults) lastEnd = Math.max(lastEnd, f.endS);
  const s = record.series;
  const states = perceivedStates(record, settings);
  const width = bucketWidths(s, record.horizonS);
  let count = 0;
  let upS = 0; // time seen up since the service last looked down
  for (let i = 0; i < s.n; i++) {
    if (bucketStartS(s, i) < lastEnd || states[i] === IDLE) continue;
    if (states[i] === UP) {
      upS += width[i];
      continue;
    }
    if (upS >= settings.relapseUpS) count++;
    upS = 0;
  }
  return count;
}
