/**
 * Latency seen by attempts that got an answer: median and 99th percentile per variant, on a
 * log scale because a storm moves latency from milliseconds to the client timeout and
 * beyond (queue wait), and both ends must stay readable.
 */
import { DATASETS, LINE_GAPS, decadeTicks, faultLayer, pickParam, picked, timeX, topLevel, variantColor, zoomParam, type Chart, type ChartContext } from './common.js';

export function latencyChart(ctx: ChartContext): Chart {
  // Ticks at whole decades (1, 10, 100 … ms) spanning every value drawn at any sweep point.
  const lo = Math.min(ctx.extents?.latency_p50_ms?.min ?? 1, ctx.extents?.latency_p99_ms?.min ?? 1);
  const hi = Math.max(ctx.extents?.latency_p50_ms?.max ?? 10, ctx.extents?.latency_p99_ms?.max ?? 10);
  const ticks = decadeTicks(lo, hi, false);
  return {
    id: 'latency',
    title: 'Latency',
    caption:
      'Attempt latency, p50 (solid) and p99 (dashed), log scale; averaged across seeds. ' +
      'A p99 pinned at the client timeout means clients give up on answers the server still works on.',
    datasets: [DATASETS.series, DATASETS.faultWindows],
    spec: topLevel({
      width: ctx.width,
      height: 200,
      layer: [
        faultLayer(ctx),
        {
          data: { name: DATASETS.series },
          transform: [
            { fold: ['latency_p50_ms', 'latency_p99_ms'], as: ['which', 'ms'] },
            // A log scale has no 0: a bucket without answers is a gap in the line, not a point.
            { calculate: 'isValid(datum.ms) && datum.ms > 0 ? datum.ms : null', as: 'ms' },
            { calculate: "datum.which === 'latency_p50_ms' ? 'p50' : 'p99'", as: 'percentile' },
          ],
          params: [pickParam(), zoomParam()],
          mark: { type: 'line', strokeWidth: 1.3, invalid: LINE_GAPS },
          encoding: {
            x: timeX(ctx),
            y: { field: 'ms', type: 'quantitative', title: 'latency (ms, log scale)', scale: { type: 'log', domain: ticks.domain }, axis: { values: ticks.values, format: ',~r' } },
            color: variantColor(ctx),
            opacity: picked(),
            strokeDash: { field: 'percentile', type: 'nominal', scale: { domain: ['p50', 'p99'], range: [[1, 0], [5, 3]] }, legend: { orient: 'top', title: null } },
            tooltip: [{ field: 'variant' }, { field: 'percentile' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: 'ms', title: 'latency (ms)', format: ',.1f' }],
          },
        },
      ],
    }),
  };
}
