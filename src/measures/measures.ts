/**
 * The one place a run's measures are defined: whole-run scalars, `summarize` (a RunRecord in,
 * a plain JSON-able RunSummary out) and MEASURE_DOCS, the one-sentence definitions the docs
 * and reports quote. The per-bucket series and the recovery rule it builds on are
 * re-exported, so callers import every measure from here.
 */
import type { RunRecord } from '../model/series.js';
import {
  baseline,
  bucketStartS,
  derivedSeries,
  DEFAULT_MEASURE_SETTINGS,
  type Baseline,
  type MeasureSettings,
} from './derived.js';
import { perceivedOutageS, recovery, relapses } from './recovery.js';
import { retryWaves } from './waves.js';

export * from './derived.js';
export * from './recovery.js';

/** Largest finite value of xs, NaN ignored; 0 when there is none. */
function finiteMax(xs: Float64Array): number {
  let m = -Infinity;
  for (const x of xs) if (Number.isFinite(x) && x > m) m = x;
  return m === -Infinity ? 0 : m;
}

/** JSON has no NaN or Infinity: such a value becomes the field's documented fallback. */
function finiteOr<T>(x: number, fallback: T): number | T {
  return Number.isFinite(x) ? x : fallback;
}

/** Highest offered load multiple over the buckets (the last bucket's rate uses its real width); 0 when undefined. */
export function peakLoadMultiple(
  record: RunRecord,
  settings: MeasureSettings,
  base: Baseline = baseline(record, settings),
): number {
  const d = derivedSeries(record.series, {
    baselineRate: base.rate,
    minAttemptsForShare: settings.minAttemptsForShare,
    horizonS: record.horizonS,
  });
  return finiteMax(d.offeredLoadMultiple);
}

/** Highest retry share over buckets with at least `minAttemptsForShare` attempts; 0 when none qualifies. */
export function peakRetryShare(record: RunRecord, settings: MeasureSettings): number {
  const d = derivedSeries(record.series, {
    baselineRate: 1,
    minAttemptsForShare: settings.minAttemptsForShare,
    horizonS: record.horizonS,
  });
  return finiteMax(d.retryShare);
}

/**
 * The retry share (ground truth) in the bucket of highest offered load, the one
 * peakLoadMultiple comes from (ties: the first): "85% of the requests at the peak were
 * retries". With a 0 baseline, the bucket with the most attempts per second. Null when that
 * bucket has fewer than `minAttemptsForShare` attempts, or there is no bucket.
 */
export function retryShareAtPeak(
  record: RunRecord,
  settings: MeasureSettings,
  base: Baseline = baseline(record, settings),
): number | null {
  const d = derivedSeries(record.series, {
    baselineRate: base.rate,
    minAttemptsForShare: settings.minAttemptsForShare,
    horizonS: record.horizonS,
  });
  const load = (i: number) =>
    base.rate > 0 ? d.offeredLoadMultiple[i] : d.widthS[i] > 0 ? record.series.attempts[i] / d.widthS[i] : NaN;
  let peak = -1;
  for (let i = 0; i < record.series.n; i++) {
    const x = load(i);
    if (Number.isFinite(x) && (peak < 0 || x > load(peak))) peak = i;
  }
  return peak >= 0 ? finiteOr(d.retryShare[peak], null) : null;
}

export interface AttemptsPerActionStats {
  mean: number;
  /** Smallest k such that at least 99% of finished actions took k attempts or fewer. */
  p99: number;
  max: number;
  /** histogram[k] = finished user actions that took exactly k attempts (the distribution the report draws). */
  histogram?: number[];
}

/** Amplification from the histogram hist[k] = finished actions that took k attempts; zeros when none finished. */
export function attemptsPerAction(hist: readonly number[]): AttemptsPerActionStats {
  let total = 0;
  let weighted = 0;
  let max = 0;
  for (let k = 0; k < hist.length; k++) {
    const c = hist[k];
    if (!(c > 0)) continue;
    total += c;
    weighted += k * c;
    max = k;
  }
  if (total === 0) return { mean: 0, p99: 0, max: 0 };
  // Nearest rank in exact integer arithmetic (counts are integers), so the boundary case
  // "exactly 99% took k or fewer" never depends on how 0.99 rounds in binary.
  const rank = Math.ceil((99 * total) / 100);
  let cum = 0;
  let p99 = max;
  for (let k = 0; k < hist.length; k++) {
    cum += hist[k] > 0 ? hist[k] : 0;
    if (cum >= rank) {
      p99 = k;
      break;
    }
  }
  return { mean: weighted / total, p99, max };
}

/** Slot-seconds of work done for callers that had already given up, and their share of all work (0 when no work). */
/** Success of user actions per route over the whole run (login vs signup in story 003). */
export function routeOutcomes(record: RunRecord): RunSummary['routes'] {
  const s = record.series;
  const out: RunSummary['routes'] = {};
  (record.routes ?? ['default']).forEach((name, r) => {
    const ok = (s.routeActionsOk?.[r] ?? s.actionsOk).reduce((a, b) => a + b, 0);
    const failed = (s.routeActionsFailed?.[r] ?? s.actionsFailed).reduce((a, b) => a + b, 0);
    out[name] = { successRatio: ok + failed > 0 ? ok / (ok + failed) : null, actionsOk: ok, actionsFailed: failed };
  });
  return out;
}

/** Bytes per fingerprint a real detection table holds: 32 (SHA-256) + 8 (timestamp) + ~24 (hash-map entry). */
export const FINGERPRINT_ENTRY_BYTES = 64;

/** True and detected retry shares over the whole run, the false positives, and the table's memory. */
export function retryDetection(record: RunRecord): { retryShare: number; detectedRetryShare: number; detectionFalsePositiveShare: number; fingerprintTableBytes: number } {
  const s = record.series;
  let attempts = 0, retries = 0, detected = 0, fp = 0;
  for (let i = 0; i < s.n; i++) {
    attempts += s.attempts[i];
    retries += s.retries[i];
    detected += s.detectedRetries[i];
    fp += s.detectionFalsePositives[i];
  }
  const share = (x: number) => (attempts > 0 ? x / attempts : 0);
  return {
    retryShare: share(retries),
    detectedRetryShare: share(detected),
    detectionFalsePositiveShare: share(fp),
    fingerprintTableBytes: record.totals.fingerprintPeakEntries * FINGERPRINT_ENTRY_BYTES,
  };
}

/** Share of all attempts that repeat a request the server will always reject (validation-error loops). */
export function futileRetryShare(record: RunRecord): number {
  let futile = 0, attempts = 0;
  const s = record.series;
  for (let i = 0; i < s.n; i++) { futile += s.futileRetries[i]; attempts += s.attempts[i]; }
  return attempts > 0 ? futile / attempts : 0;
}

export function wastedWork(record: RunRecord): { wastedWorkS: number; wastedWorkShare: number } {
  const { wastedWorkS, workS } = record.totals;
  return { wastedWorkS, wastedWorkShare: workS > 0 ? wastedWorkS / workS : 0 };
}

/**
 * Do new users get served while the returning wave arrives? Of the original requests (first
 * tries) sent in the `hold` after the last fault ended, the share answered with success;
 * null without faults, or when no original was sent in that window. A reserve for originals
 * is meant to hold this up while retries are refused.
 */
export function originalSuccessAfterFault(record: RunRecord, settings: MeasureSettings): number | null {
  if (record.faults.length === 0) return null;
  let lastEnd = -Infinity;
  for (const f of record.faults) lastEnd = Math.max(lastEnd, f.endS);
  const s = record.series;
  let sent = 0, ok = 0;
  for (let i = 0; i < s.n; i++) {
    const start = bucketStartS(s, i);
    if (start < lastEnd || start >= lastEnd + settings.holdS) continue;
    sent += s.firstTries[i];
    ok += s.firstTriesOk[i];
  }
  return sent > 0 ? ok / sent : null;
}

/** Whole-run user success ratio; null when no action ended. */
export function successRatio(record: RunRecord): number | null {
  const { actionsOk, actionsFailed } = record.totals;
  const ended = actionsOk + actionsFailed;
  return ended > 0 ? actionsOk / ended : null;
}

/** Successful user actions per second over the whole run. */
export function goodputMean(record: RunRecord): number {
  return record.horizonS > 0 ? record.totals.actionsOk / record.horizonS : 0;
}

/** What one run measured. Plain data: every number is finite, or null where documented. */
export interface RunSummary {
  baselineRate: number;
  preFaultSuccessRatio: number | null;
  preFaultLoadMultiple: number | null;
  lastFaultEndS: number | null;
  recovered: boolean;
  recoveryTimeS: number | null;
  perceivedOutageS: number;
  relapses: number;
  retryWaves: number;
  originalSuccessAfterFault: number | null;
  peakLoadMultiple: number;
  peakRetryShare: number;
  retryShareAtPeak: number | null;
  attemptsPerAction: AttemptsPerActionStats;
  wastedWorkS: number;
  wastedWorkShare: number;
  futileRetryShare: number;
  retryShare: number;
  detectedRetryShare: number;
  detectionFalsePositiveShare: number;
  fingerprintTableBytes: number;
  /** Per route: how its user actions fared. */
  routes: Record<string, { successRatio: number | null; actionsOk: number; actionsFailed: number }>;
  /** Per dependency with a quota: its use and the time each alert threshold was first crossed. */
  quotas: Record<string, { peakWindowUse: number; providerRefused: number; guardRefused: number; failedOver: number; alertFirstS: Record<string, number | null> }>;
  successRatio: number | null;
  goodputMean: number;
  actionsStarted: number;
  actionsOk: number;
  actionsFailed: number;
  attempts: number;
  utilisation: number;
  meanQueueWaitS: number;
}

export function summarize(record: RunRecord, settings: MeasureSettings = DEFAULT_MEASURE_SETTINGS): RunSummary {
  const base = baseline(record, settings);
  const rec = recovery(record, settings, base);
  const t = record.totals;
  const apa = attemptsPerAction(record.attemptsPerAction);
  const wasted = wastedWork(record);
  return {
    baselineRate: finiteOr(base.rate, 0),
    preFaultSuccessRatio: finiteOr(base.successRatio, null),
    preFaultLoadMultiple: finiteOr(base.loadMultiple, null),
    // A fault that never ends (endS = Infinity) has no end to report either.
    lastFaultEndS: rec.lastFaultEndS === null ? null : finiteOr(rec.lastFaultEndS, null),
    recovered: rec.recovered,
    recoveryTimeS: rec.recoveryTimeS,
    perceivedOutageS: perceivedOutageS(record, settings),
    relapses: relapses(record, settings),
    retryWaves: retryWaves(record, settings, base),
    originalSuccessAfterFault: originalSuccessAfterFault(record, settings),
    peakLoadMultiple: peakLoadMultiple(record, settings, base),
    peakRetryShare: peakRetryShare(record, settings),
    retryShareAtPeak: retryShareAtPeak(record, settings, base),
    attemptsPerAction: {
      mean: finiteOr(apa.mean, 0),
      p99: apa.p99,
      max: apa.max,
      histogram: record.attemptsPerAction.slice(0, apa.max + 1),
    },
    wastedWorkS: finiteOr(wasted.wastedWorkS, 0),
    wastedWorkShare: finiteOr(wasted.wastedWorkShare, 0),
    futileRetryShare: futileRetryShare(record),
    ...retryDetection(record),
    routes: routeOutcomes(record),
    quotas: Object.fromEntries(
      (record.quotas ?? []).map((q) => [
        q.name,
        {
          peakWindowUse: q.peakWindowUse,
          providerRefused: q.providerRefused,
          guardRefused: q.guardRefused,
          failedOver: q.failedOver,
          alertFirstS: Object.fromEntries(q.alerts.map((a) => [String(a.threshold), a.firstS])),
        },
      ]),
    ),
    successRatio: successRatio(record),
    goodputMean: finiteOr(goodputMean(record), 0),
    actionsStarted: t.actionsStarted,
    actionsOk: t.actionsOk,
    actionsFailed: t.actionsFailed,
    attempts: t.attempts,
    utilisation: t.capacityS > 0 ? finiteOr(t.workS / t.capacityS, 0) : 0,
    meanQueueWaitS: t.served > 0 ? finiteOr(t.queueWaitS / t.served, 0) : 0,
  };
}

/** One sentence per RunSummary field, quoted by docs/measures.md and the reports. */
export const MEASURE_DOCS: Record<string, string> = {
  baselineRate:
    'The 1x user-action rate (actions/s): declared in the scenario, or measured as actions started per second in the pre-fault window (after warm-up, before the first fault).',
  preFaultSuccessRatio:
    'Share of user actions that succeeded in the pre-fault window, pooled over its buckets; null when none ended there.',
  preFaultLoadMultiple:
    'Attempts reaching the server per second in the pre-fault window divided by the baseline rate (above 1 when clients already retry in good times); null when the baseline is 0.',
  lastFaultEndS: 'Time (s) at which the last fault ended; null when the run had no faults.',
  recovered:
    'Whether the service became healthy after the last fault and stayed healthy for the hold window before the run ended.',
  recoveryTimeS:
    'Seconds from the end of the last fault to the start of the first healthy stretch that lasted the hold window; null when the service never recovered (a metastable failure), 0 with no faults.',
  perceivedOutageS:
    "Seconds during which users' success ratio was below the perceived-outage threshold, counting buckets where users started actions but none ended.",
  relapses:
    'Re-collapses: times, after the last fault ended, that users saw the service up (success ratio at or above the perceived-outage threshold) for at least `relapseUp` and then down again. 0 both for a service that came back and stayed and for one that never came back.',
  retryWaves:
    'Waves of returning retries after the last fault ended: times the offered load, averaged over a minute, rose to 1.5 times its lowest point since the previous wave and above the healthy load limit. A storm still above the limit as the fault ends is the first wave and is not counted.',
  originalSuccessAfterFault:
    'Of the original requests (first tries) sent during the `hold` after the last fault ended, the share answered with success: do new users get served while the returning wave arrives? null without faults.',
  peakLoadMultiple: 'Highest per-bucket offered load: attempts reaching the server per second divided by the baseline rate.',
  peakRetryShare:
    'Highest per-bucket share of attempts that were retries (ground truth), over buckets with enough attempts to make the ratio meaningful.',
  retryShareAtPeak:
    'Share of attempts that were retries (ground truth) in the bucket of peak offered load, the one peakLoadMultiple comes from: how much of the peak the retries made. null when that bucket has too few attempts for a meaningful ratio.',
  attemptsPerAction:
    'Amplification: attempts each finished user action took (mean, 99th percentile, max); zeros when no action finished.',
  wastedWorkS: 'Server slot-seconds spent on attempts whose caller had already stopped waiting.',
  wastedWorkShare: 'Wasted work as a share of all server work done; 0 when no work was done.',
  retryShare: 'True share of attempts that were retries over the whole run (ground truth, which the server cannot see).',
  detectedRetryShare: 'Share of attempts the server\'s retry detection marked as retries over the whole run; 0 without a retry-detection stage.',
  detectionFalsePositiveShare: 'Share of attempts marked as retries that were in fact first tries (two identical legitimate requests), over all attempts.',
  fingerprintTableBytes: 'Memory a real retry-detection table would need at its peak: peak fingerprints held x 64 bytes (a SHA-256 fingerprint, a timestamp, map overhead).',
  routes: 'Per route (identity.route of the populations): success ratio, successful and failed user actions over the run.',
  quotas: 'Per dependency with a quota: the highest share of the quota used in any window, calls the provider refused (429), calls our guard refused before it, calls failed over to local validation, and the time each alert threshold was first crossed (null: never).',
  futileRetryShare: 'Retries of requests that can never succeed (validation loops) as a share of all attempts over the whole run; 0 when there were no attempts.',
  successRatio: 'Share of ended user actions that succeeded over the whole run; null when none ended.',
  goodputMean: 'User actions completed successfully per second, averaged over the whole run.',
  actionsStarted: 'User actions that arrived during the run.',
  actionsOk: 'User actions that completed successfully.',
  actionsFailed: 'User actions that ended in failure (out of attempts, or the user gave up).',
  attempts: 'Attempts that reached, or tried to reach, the server (first tries plus retries).',
  utilisation: 'Slot-seconds of work done divided by slot-seconds of capacity available.',
  meanQueueWaitS: "Mean time (s) a served attempt waited in the server's queue before getting a slot; 0 when none was served.",
} satisfies Record<keyof RunSummary, string>;
