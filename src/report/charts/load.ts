/**
 * Offered load as a multiple of the 1x baseline, one line per variant: the first thing to
 * read in a retry storm. A service that recovers drops back to about 1x after the fault;
 * one stuck in a metastable failure stays at 2x-4x while clients keep retrying. The pale
 * band is the range across seeds and merged buckets, so peaks hidden by averaging stay visible.
 */
import { DATASETS, LINE_GAPS, actionLayer, faultLayer, pickParam, picked, timeX, topLevel, variantColor, zoomParam, type Chart, type ChartContext } from './common.js';

export function loadChart(ctx: ChartContext): Chart {
  const series = { name: DATASETS.series };
  const y = { field: 'load_multiple', type: 'quantitative', title: 'offered load (× baseline)', scale: { zero: true } };
  return {
    id: 'load',
    title: 'Offered load',
    caption:
      'Attempts reaching the server per second, divided by the 1x baseline (user actions per second before the fault). ' +
      'Shaded: fault windows; dashed vertical lines: operator actions and autoscaler decisions (hover for what and why). The dashed line is 1x; the pale band around each line spans the lowest to highest value across seeds and merged buckets. ' +
      'Click a legend entry to show only that variant (shift-click for more); shift + scroll zooms the time axis, drag pans, double-click resets.',
    datasets: [DATASETS.series, DATASETS.faultWindows, DATASETS.actions],
    spec: topLevel({
      width: ctx.width,
      height: 220,
      layer: [
        faultLayer(ctx),
        {
          data: series,
          mark: { type: 'area' },
          encoding: { x: timeX(ctx), y: { ...y, field: 'load_lo' }, y2: { field: 'load_hi' }, color: variantColor(ctx), opacity: picked(0.18) },
        },
        {
          data: series,
          params: [pickParam(), zoomParam()],
          mark: { type: 'line', strokeWidth: 1.5, invalid: LINE_GAPS },
          encoding: {
            x: timeX(ctx),
            y,
            color: variantColor(ctx),
            opacity: picked(),
            tooltip: [
              { field: 'variant' },
              { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' },
              { field: 'load_multiple', title: 'offered load (× baseline)', format: '.3~f' },
              { field: 'load_hi', title: 'highest (× baseline)', format: '.3~f' },
            ],
          },
        },
        { data: { values: [{}] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { y: { datum: 1 } } },
        actionLayer(ctx),
      ],
    }),
  };
}
