/**
 * Can the server tell retries from first tries? Its retry-detection stage's view against the
 * ground truth, and what a real detection table would cost in memory. Server measures.
 */
import { defineMeasure } from './measure.js';

/** Bytes per fingerprint a real detection table holds: 32 (SHA-256) + 8 (timestamp) + ~24 (hash-map entry). */
export const FINGERPRINT_ENTRY_BYTES = 64;

const sum = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0);

export const detectedRetryShare = defineMeasure({
  key: 'detectedRetryShare',
  label: 'detected retries',
  doc: "Share of attempts the server's retry detection marked as retries over the whole run; 0 without a retry-detection stage.",
  unit: 'share',
  better: 'none',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  compute: (v) => {
    const attempts = sum(v.record.series.attempts);
    return attempts > 0 ? sum(v.record.series.detectedRetries) / attempts : 0;
  },
});

export const detectionFalsePositiveShare = defineMeasure({
  key: 'detectionFalsePositiveShare',
  label: 'false detections',
  doc: 'Share of attempts marked as retries that were in fact first tries (two identical legitimate requests), over all attempts.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  // Its values are fractions of a percent: a tenth of a point, not the shares' default point.
  tie: { absolute: 0.001 },
  compute: (v) => {
    const attempts = sum(v.record.series.attempts);
    return attempts > 0 ? sum(v.record.series.detectionFalsePositives) / attempts : 0;
  },
});

export const fingerprintTableBytes = defineMeasure({
  key: 'fingerprintTableBytes',
  label: 'detection table',
  doc: 'Memory a real retry-detection table would need at its peak: peak fingerprints held x 64 bytes (a SHA-256 fingerprint, a timestamp, map overhead).',
  unit: 'bytes',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => v.record.totals.fingerprintPeakEntries * FINGERPRINT_ENTRY_BYTES,
});
