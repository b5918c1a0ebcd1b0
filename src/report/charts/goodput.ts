/**
 * What users get: goodput (user actions completed per second) and the share of ended
 * actions that succeeded, per variant. Load can look fine while goodput is near zero: the
 * server is busy, but with work for clients that already gave up.
 */
import { observedLayers, withObservedData } from './observed.js';
import { DATASETS, LINE_GAPS, actionLayer, faultLayer, pickParam, picked, timeX, topLevel, variantColor, zoomParam, type Chart, type ChartContext } from './common.js';

export function goodputChart(ctx: ChartContext): Chart {
  const panel = (field: string, title: string, format: string, extra: Record<string, unknown> = {}, zoom = false) => ({
    width: ctx.width,
    height: 150,
    layer: [
      faultLayer(ctx),
      {
        data: { name: DATASETS.series },
        // One selection per chart, defined in the first panel: a double-click anywhere clears it.
        ...(zoom ? { params: [pickParam(), zoomParam()] } : {}),
        mark: { type: 'line', strokeWidth: 1.5, invalid: LINE_GAPS },
        encoding: {
          x: timeX(ctx),
          y: { field, type: 'quantitative', title, axis: { format }, ...extra },
          color: variantColor(ctx),
          opacity: picked(),
          tooltip: [{ field: 'variant' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field, title, format: format === '.0%' ? '.1%' : ',.1f' }],
        },
      },
      actionLayer(ctx),
      ...observedLayers(ctx, [field], { title, axis: { format }, ...extra }),
    ],
  });
  return {
    id: 'goodput',
    title: 'Goodput and success ratio',
    caption:
      'Top: user actions completed successfully per second. Bottom: the share of user actions ending in each bucket that succeeded ' +
      '(an action succeeds if any of its attempts does). Gaps mean no action ended in that bucket. Dashed vertical lines: operator actions.',
    datasets: withObservedData(ctx, ['goodput_per_s', 'success_ratio'], [DATASETS.series, DATASETS.faultWindows, DATASETS.actions]),
    spec: topLevel({
      vconcat: [
        panel('goodput_per_s', 'goodput (actions/s)', ',.0f', {}, true),
        panel('success_ratio', 'success ratio', '.0%', { scale: { domain: [0, 1] } }),
      ],
      resolve: { scale: { x: 'shared' } },
    }),
  };
}
