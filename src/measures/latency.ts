/**
 * How long users waited: the latency of their actions (from the action's start to its final
 * outcome, success or failure, so backoff waits, queueing and every retry count) and the
 * response time of their attempts (send to answer). Quantiles come from the recorder's
 * mergeable sketches (src/model/latency-histogram.ts), within 0.4%; means are exact.
 * Users measures, kept per population: a slow-but-successful policy is told from a fast one,
 * and hedging's gain in the tail shows. The per-population tables show the actions' p50 and
 * p99 (the rest stays in summary.json: inPopulationTable).
 *
 * An action's latency counts failures too: a user who waited 40 s for an error waited 40 s,
 * and leaving failures out would make a policy that fails slowly look fast. Read it beside
 * the success ratio. Actions still in flight at the horizon are not in it.
 */
import type { LatencyHistogram } from '../model/latency-histogram.js';
import { defineMeasure, type MeasureDescriptor, type Tie } from './measure.js';
import type { RunView } from './view.js';

/**
 * Latencies are read in milliseconds: the duration unit's default tolerance (1 s) would tie a
 * 50 ms p99 with a 900 ms one. Two values tie within 1 ms or 5%, whichever is larger.
 */
const LATENCY_TIE: Tie = { relative: 0.05, absolute: 0.001 };

type Stat = { kind: 'quantile'; p: number } | { kind: 'mean' };

/** A latency measure: one statistic of the actions' or the attempts' sketch, null when it is empty. */
function latencyMeasure<const K extends string>(
  key: K,
  label: string,
  doc: string,
  sketch: (v: RunView) => LatencyHistogram,
  stat: Stat,
  extra: Partial<MeasureDescriptor> = {},
): MeasureDescriptor<K> {
  return defineMeasure<K>({
    label,
    doc,
    unit: 'duration',
    better: 'lower',
    aggregate: 'mean',
    scope: 'users',
    perPopulation: true,
    range: { min: 0, max: 'horizon' },
    tie: LATENCY_TIE,
    compute: (v) => {
      const h = sketch(v);
      if (h.count === 0) return null;
      return stat.kind === 'mean' ? h.mean() : h.quantile(stat.p);
    },
    ...extra,
    key,
  });
}

const ACTION = "the users' actions that ended, from start to final outcome (success or failure, given up included: backoff waits, queueing and retries count)";
const ATTEMPT = "the users' attempts answered while they still waited, from send to answer (a timed-out attempt has none)";
const SKETCH = 'within 0.4%';

const actions = (v: RunView) => v.actionLatency;
const attempts = (v: RunView) => v.attemptLatency;

export const actionLatencyP50S = latencyMeasure('actionLatencyP50S', 'latency p50', `Median latency of ${ACTION}, ${SKETCH}; null when no action ended.`, actions, { kind: 'quantile', p: 0.5 });
export const actionLatencyP95S = latencyMeasure('actionLatencyP95S', 'latency p95', `95th percentile latency of ${ACTION}, ${SKETCH}; null when no action ended.`, actions, { kind: 'quantile', p: 0.95 }, { inPopulationTable: false });
export const actionLatencyP99S = latencyMeasure('actionLatencyP99S', 'latency p99', `99th percentile latency of ${ACTION}, ${SKETCH}; null when no action ended.`, actions, { kind: 'quantile', p: 0.99 }, { headline: true });
export const actionLatencyMeanS = latencyMeasure('actionLatencyMeanS', 'latency mean', `Mean latency of ${ACTION}, exact; null when no action ended.`, actions, { kind: 'mean' }, { inPopulationTable: false });
export const attemptLatencyP50S = latencyMeasure('attemptLatencyP50S', 'attempt p50', `Median response time of ${ATTEMPT}, ${SKETCH}; null when none was answered.`, attempts, { kind: 'quantile', p: 0.5 }, { inPopulationTable: false });
export const attemptLatencyP95S = latencyMeasure('attemptLatencyP95S', 'attempt p95', `95th percentile response time of ${ATTEMPT}, ${SKETCH}; null when none was answered.`, attempts, { kind: 'quantile', p: 0.95 }, { inPopulationTable: false });
export const attemptLatencyP99S = latencyMeasure('attemptLatencyP99S', 'attempt p99', `99th percentile response time of ${ATTEMPT}, ${SKETCH}; null when none was answered.`, attempts, { kind: 'quantile', p: 0.99 }, { inPopulationTable: false });
export const attemptLatencyMeanS = latencyMeasure('attemptLatencyMeanS', 'attempt mean', `Mean response time of ${ATTEMPT}, exact; null when none was answered.`, attempts, { kind: 'mean' }, { inPopulationTable: false });
