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
import { defineMeasure } from './measure.js';

/** The load is averaged over this trailing window, so one noisy bucket is not a wave. */
export const WAVE_WINDOW_S = 60;
/** A wave rises to at least this multiple of the lowest (averaged) load since the last wave, and ends when it falls by the same factor. */
export const WAVE_RISE = 1.5;

export const retryWaves = defineMeasure({
  key: 'retryWaves',
  headline: true,
  label: 'retry waves',
  doc: 'Waves of returning retries after the last trigger ended: times the offered load, averaged over a minute, rose to 1.5 times its lowest point since the previous wave and above the healthy load limit. A storm still above the limit as the trigger ends is the first wave and is not counted.',
  unit: 'count',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => {
    const lastEnd = v.lastTriggerEndS;
    if (lastEnd === null) return 0;
    const limit = v.limits.maxLoadMultiple;
    if (Number.isNaN(limit)) return 0; // no baseline: a surge cannot be told from normal load
    const span = Math.max(1, Math.round(WAVE_WINDOW_S / v.bucketS));
    const load = v.loadMultiple, width = v.widths;
    let count = 0;
    let started = false, inWave = false;
    let peak = -Infinity, trough = Infinity;
    let atEnd = NaN; // the averaged load of the last bucket that began before the trigger ended
    let sum = 0, weight = 0;
    for (let i = 0; i < v.n; i++) {
      // Trailing mean over `span` buckets, weighted by their real width.
      if (Number.isFinite(load[i])) { sum += load[i] * width[i]; weight += width[i]; }
      const j = i - span;
      if (j >= 0 && Number.isFinite(load[j])) { sum -= load[j] * width[j]; weight -= width[j]; }
      if (weight <= 0) continue;
      const x = sum / weight;
      if (i * v.bucketS < lastEnd) { atEnd = x; continue; }
      if (!started) {
        started = true;
        inWave = atEnd > limit; // a storm still going as the trigger ends is the first wave
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
  },
});
