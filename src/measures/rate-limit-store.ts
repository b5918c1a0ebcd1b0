/**
 * The shared rate-limit store as a bottleneck (story 001: "the latency of the checker: the
 * communication with Redis must be monitored so that it does not become a bottleneck"): how
 * long checks waited in the store's queue, and how many timed out and fell to the stage's
 * onStoreFailure. Server measures, over every shared-store rate-limit stage of the edge
 * (src/model/server/rate-limit-store.ts has the model).
 */
import { defineMeasure } from './measure.js';
import type { RunView } from './view.js';

const stores = (v: RunView) => (v.record.rateLimits ?? []).flatMap((r) => (r.sharedStore ? [r.sharedStore] : []));

export const rateLimitStoreWaitMeanS = defineMeasure({
  key: 'rateLimitStoreWaitMeanS',
  label: 'rate-limit store wait',
  doc: 'Mean time a rate-limit check waited in the shared store\'s queue before the store ran it (round trip and service excluded), over the checks the store ran; 0 for a store without a capacity (storeCapacity), null without a shared-store rate limit or when it ran no check.',
  unit: 'duration',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  // Its values are milliseconds: a tenth of one, not the durations' default second.
  tie: { relative: 0.05, absolute: 0.0001 },
  compute: (v) => {
    const s = stores(v);
    const checks = s.reduce((a, x) => a + x.checks, 0);
    return checks > 0 ? s.reduce((a, x) => a + x.waitS, 0) / checks : null;
  },
});

export const rateLimitStoreTimeouts = defineMeasure({
  key: 'rateLimitStoreTimeouts',
  label: 'rate-limit store timeouts',
  doc: 'Rate-limit checks whose answer from the shared store would have come after the stage\'s storeTimeout: store failures, decided by onStoreFailure (open, closed or local) instead of the shared count; null without a shared-store rate limit.',
  unit: 'count',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  compute: (v) => {
    const s = stores(v);
    return s.length ? s.reduce((a, x) => a + x.timeouts, 0) : null;
  },
});
