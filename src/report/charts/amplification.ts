/**
 * Amplification: how many attempts a user action took, the whole distribution (share of the
 * verdict's users' finished actions by attempts taken), bars per variant in the variant's
 * colour.
 */
import { DATASETS, pickParam, picked, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

export function amplificationChart(ctx: ChartContext): Chart {
  const barWidth = Math.max(ctx.width, 60 * ctx.variants.length);
  return {
    id: 'amplification',
    title: 'Attempts per user action',
    caption: 'Share of finished user actions by the number of attempts they took (1 = no retry), per variant; from 6 attempts on, actions are counted in ranges (6–10, 11–20, 21–50, …). Click a legend entry to show one variant.',
    datasets: [DATASETS.amplification],
    spec: topLevel({
      data: { name: DATASETS.amplification },
      transform: [{ filter: "datum.stat === 'histogram'" }],
      width: barWidth,
      height: 200,
      params: [pickParam()],
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'bin', type: 'ordinal', title: 'attempts taken', sort: { field: 'order' }, axis: { labelAngle: 0 } },
        xOffset: { field: 'variant', type: 'nominal', scale: { domain: ctx.variants } },
        y: { field: 'share', type: 'quantitative', title: 'share of finished actions', axis: { format: '.0%' } },
        color: { ...variantColor(ctx), legend: { orient: 'top', direction: 'horizontal', title: null, symbolType: 'square' } },
        opacity: picked(),
        tooltip: [{ field: 'variant' }, { field: 'bin', title: 'attempts taken' }, { field: 'share', title: 'share of finished actions', format: '.2%' }, { field: 'value', title: 'actions (every seed together)', format: ',d' }],
      },
    }),
  };
}
