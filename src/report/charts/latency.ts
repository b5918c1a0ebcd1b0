/**
 * Latency over time, median and 99th percentile per variant, on a log scale because a storm
 * moves latency from milliseconds to the client timeout and beyond (queue wait, backoff), and
 * both ends must stay readable. Two charts share the drawing: the users' latency (their
 * actions, start to final outcome: what they waited), drawn beside the offered load, and the
 * attempts' latency (one request, send to answer: what the server and the timeouts see).
 */
import { observedLayers, withObservedData } from './observed.js';
import { DATASETS, LINE_GAPS, actionLayer, decadeTicks, faultLayer, pickParam, picked, timeX, topLevel, variantColor, zoomParam, type Chart, type ChartContext } from './common.js';

interface Percentiles {
  id: string;
  title: string;
  caption: string;
  /** The series columns of the p50 and the p99 (ms). */
  p50: string;
  p99: string;
  /** Operator actions as dashed rules (the users' chart, read beside the load chart, has them too). */
  actions: boolean;
}

function percentilesChart(ctx: ChartContext, c: Percentiles): Chart {
  // Ticks at whole decades (1, 10, 100 … ms) spanning every value drawn at any sweep point,
  // so changing the point keeps the axis and a line is compared against the same scale.
  const lo = Math.min(ctx.extents?.[c.p50]?.min ?? 1, ctx.extents?.[c.p99]?.min ?? 1);
  const hi = Math.max(ctx.extents?.[c.p50]?.max ?? 10, ctx.extents?.[c.p99]?.max ?? 10);
  const ticks = decadeTicks(lo, hi, false);
  return {
    id: c.id,
    title: c.title,
    caption: c.caption,
    datasets: withObservedData(ctx, [c.p50, c.p99], c.actions ? [DATASETS.series, DATASETS.faultWindows, DATASETS.actions] : [DATASETS.series, DATASETS.faultWindows]),
    spec: topLevel({
      width: ctx.width,
      height: 200,
      layer: [
        faultLayer(ctx),
        {
          data: { name: DATASETS.series },
          transform: [
            { fold: [c.p50, c.p99], as: ['which', 'ms'] },
            // A bucket without a value is a gap in the line, not a point. A log scale has no 0:
            // a latency of 0 (every answer a refusal at once) sits on the axis' floor instead,
            // so a variant failing fast reads as fast, not as missing; its tooltip still says 0.
            { calculate: 'isValid(datum.ms) ? datum.ms : null', as: 'ms' },
            { calculate: `datum.ms === null ? null : max(datum.ms, ${ticks.domain[0]})`, as: 'drawn' },
            { calculate: `datum.which === '${c.p50}' ? 'p50' : 'p99'`, as: 'percentile' },
          ],
          params: [pickParam(), zoomParam()],
          mark: { type: 'line', strokeWidth: 1.3, invalid: LINE_GAPS },
          encoding: {
            x: timeX(ctx),
            y: { field: 'drawn', type: 'quantitative', title: 'latency (ms, log scale)', scale: { type: 'log', domain: ticks.domain }, axis: { values: ticks.values, format: ',~r' } },
            color: variantColor(ctx),
            opacity: picked(),
            strokeDash: { field: 'percentile', type: 'nominal', scale: { domain: ['p50', 'p99'], range: [[1, 0], [5, 3]] }, legend: { orient: 'top', title: null } },
            tooltip: [{ field: 'variant' }, { field: 'percentile' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: 'ms', title: 'latency (ms)', format: ',.1f' }],
          },
        },
        ...(c.actions ? [actionLayer(ctx)] : []),
        // On the log axis: a 0 sits on the floor, as the simulated lines do.
        ...observedLayers(ctx, [c.p50, c.p99], { scale: { type: 'log', domain: ticks.domain } }, ticks.domain[0]),
      ],
    }),
  };
}

/** What the verdict's users waited for their actions, bucket by bucket: drawn right after the offered load. */
export function userLatencyChart(ctx: ChartContext): Chart {
  return percentilesChart(ctx, {
    id: 'user-latency',
    title: "Users' latency",
    caption:
      "How long the verdict's users waited for the actions that ended in each bucket, from the action's start to its final outcome, success or failure " +
      '(backoff waits, queueing and every retry included): p50 solid, p99 dashed, log scale; averaged across seeds. ' +
      'Read it beside the offered load: retries that rescue users show as a p99 that grows by the backoff, not as failures; ' +
      'a p99 pinned at the users\' give-up time means they are leaving. A gap is a bucket in which no action ended; a line on the floor, actions that failed at once.',
    p50: 'action_latency_p50_ms',
    p99: 'action_latency_p99_ms',
    actions: true,
  });
}

/** The attempts' response time, bucket by bucket (every population's, as the server answers them). */
export function latencyChart(ctx: ChartContext): Chart {
  return percentilesChart(ctx, {
    id: 'latency',
    title: 'Attempt latency',
    caption:
      'Attempt latency (one request, sent to answered; every population), p50 (solid) and p99 (dashed), log scale; averaged across seeds. ' +
      'A p99 pinned at the client timeout means clients give up on answers the server still works on. A line on the floor: every answer at once (0 ms, a refusal).',
    p50: 'latency_p50_ms',
    p99: 'latency_p99_ms',
    actions: false,
  });
}
