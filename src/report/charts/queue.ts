/**
 * The server's state: queue length, and busy slots against capacity with the part of the
 * work that was wasted (done for attempts whose caller had already given up). A full queue
 * of abandoned attempts, with every slot busy on wasted work, is the signature of a
 * metastable failure.
 */
import { observedLayers, withObservedData } from './observed.js';
import { DATASETS, LINE_GAPS, decadeTicks, faultLayer, pickParam, picked, timeX, topLevel, variantColor, zoomParam, type Chart, type ChartContext } from './common.js';

export function queueChart(ctx: ChartContext): Chart {
  // Symmetric log with ticks at 0, 1, 10, 100 … up to a decade at or above the longest queue drawn.
  const ticks = decadeTicks(1, ctx.extents?.queue_len?.max ?? 10, true);
  const tooltip = (field: string, title: string) => [{ field: 'variant' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field, title, format: ',.1f' }];
  return {
    id: 'queue',
    title: 'Queue and busy slots',
    caption:
      'Top: attempts waiting in the server queue (time-averaged per bucket; symmetric log scale). ' +
      'Bottom: busy slots (solid), capacity (dashed) and busy slots working for callers that had already given up (dotted, "wasted").',
    datasets: withObservedData(ctx, ['queue_len', 'busy_slots'], [DATASETS.series, DATASETS.faultWindows]),
    spec: topLevel({
      vconcat: [
        {
          width: ctx.width,
          height: 140,
          layer: [
            faultLayer(ctx),
            {
              data: { name: DATASETS.series },
              params: [pickParam(), zoomParam()],
              mark: { type: 'line', strokeWidth: 1.5, invalid: LINE_GAPS },
              encoding: {
                x: timeX(ctx),
                y: { field: 'queue_len', type: 'quantitative', title: 'queue length', scale: { type: 'symlog', domain: ticks.domain }, axis: { values: ticks.values, format: ',~r' } },
                color: variantColor(ctx),
                opacity: picked(),
                tooltip: tooltip('queue_len', 'queue length (attempts)'),
              },
            },
            ...observedLayers(ctx, ['queue_len'], { title: 'queue length', scale: { type: 'symlog', domain: ticks.domain } }),
          ],
        },
        {
          width: ctx.width,
          height: 160,
          layer: [
            faultLayer(ctx),
            {
              data: { name: DATASETS.series },
              transform: [
                { fold: ['busy_slots', 'slots', 'wasted_work_s'], as: ['which', 'slots_value'] },
                { calculate: "datum.which === 'busy_slots' ? 'busy' : datum.which === 'slots' ? 'capacity' : 'wasted'", as: 'line' },
              ],
              mark: { type: 'line', strokeWidth: 1.3, invalid: LINE_GAPS },
              encoding: {
                x: timeX(ctx),
                y: { field: 'slots_value', type: 'quantitative', title: 'slots' },
                color: variantColor(ctx),
                opacity: picked(),
                strokeDash: { field: 'line', type: 'nominal', scale: { domain: ['busy', 'capacity', 'wasted'], range: [[1, 0], [6, 3], [1, 2]] }, legend: { orient: 'top', title: null } },
                tooltip: [...tooltip('slots_value', 'slots'), { field: 'line' }],
              },
            },
            ...observedLayers(ctx, ['busy_slots'], { title: 'slots' }),
          ],
        },
      ],
      resolve: { scale: { x: 'shared' } },
    }),
  };
}
