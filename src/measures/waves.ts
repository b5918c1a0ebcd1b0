/**
 * Waves of returning retries. After an outage, clients that back off on the same schedule
 * come back together, and each wave can push the server over again: the source story's
 * "the service falls again with every wave of synchronised retries". This counts those
 * surges in the offered load, so a policy that spreads clients out (jitter, a spread
 * Retry-After) shows up as fewer waves, not only as a lower peak.
 *
 * It reads load rather than success on purpose: a service that never came back can still
 * be hit by wave after wave (relapses, which need the service to be up in between, would
 * read 0 there), and a wave is what the operators see on the traffic chart.
 */
import type { RunRecord } from '../model/series.js';
import { baseline, bucketStartS, derivedSeries, type Baseline, type MeasureSettings } from './derived.js';
import { healthLimits } from './recovery.js';

/** The load is averaged over this trailing window, so one noisy bucket is not a wave. */
export const WAVE_WINDOW_S = 60;
/** A wave rises to at least this multiple of the lowest (averaged) load since the last wave, and ends when it falls by the same factor. */
export const WAVE_RISE = 1.5;

/**
 * The number of waves after the last fault ended: times the load, averaged over
 * WAVE_WINDOW_S, rose to WAVE_RISE times the trough before it and above the healthy load
 * limit. When the load was already above the limit as the fault ended, that storm is the
 * first wave, not a re-collapse: counting starts once it has ebbed. When it was not (the
 * clients stayed quiet during the fault), the first surge after it counts. 0 without faults.
 */
export function retryWaves(record: RunRecord, settings: MeasureSettings, base: Baseline = baseline(record, settings)): number {
  if (record.faults.length === 0) return 0;
  let lastEnd = -Infinity;
  for (const f of record.faults) lastEnd = Math.max(lastEnd, f.endS);
  const s = record.series;
  const d = derivedSeries(s, { baselineRate: base.rate, minAttemptsForShare: settings.minAttemptsForShare, horizonS: record.horizonS });
  const limit = healthLimits(base, settings).maxLoadMultiple;
  if (Number.isNaN(limit)) return 0; // no baseline: a surge cannot be told from normal load
  const span = Math.max(1, Math.round(WAVE_WINDOW_S / s.bucketS));

  let count = 0;
  let started = false;
  let inWave = false;
  let peak = -Infinity;
  let trough = Infinity;
  let atEnd = NaN; // the averaged load of the last bucket that began before the fault ended
  let sum = 0, weight = 0;
  const load = d.offeredLoadMultiple, width = d.widthS;
  for (let i = 0; i < s.n; i++) {
    // Trailing mean over `span` buckets, weighted by their real width.
    if (Number.isFinite(load[i])) { sum += load[i] * width[i]; weight += width[i]; }
    const j = i - span;
    if (j >= 0 && Number.isFinite(load[j])) { sum -= load[j] * width[j]; weight -= width[j]; }
    if (weight <= 0) continue;
    const x = sum / weight;
    if (bucketStartS(s, i) < lastEnd) { atEnd = x; continue; }
    if (!started) {
      started = true;
      inWave = atEnd > limit; // a storm still going as the fault ends is the first wave
      if (inWave) peak = atEnd;
      else trough = Number.isNaN(atEnd) ? x : Math.min(atEnd, x);
    }
    if (inWave) {
      peak = Math.max(peak, x);
      if (x * WAVE_RISE <= peak) { inWave = false; trough = x; }
    } else {
      trough = Math.min(trough, x);
      if (x >= trough * WAVE_RISE && x > limit) { count++; inWave = true; peak = x; }
    }
  }
  return count;
}
