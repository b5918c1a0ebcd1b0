/**
 * Amplification: how many attempts a user action took. With a histogram in summary.json it
 * shows the whole distribution (share of finished actions by attempts taken); until then,
 * the mean, p99 and max per variant, side by side. Either way, bars per variant in the
 * variant's colour, so "retries" can be told from "two-attempts" at a glance.
 */
import { DATASETS, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

export function amplificationChart(ctx: ChartContext, histogram: boolean): Chart {
  const barWidth = Math.max(ctx.width, 60 * ctx.variants.length);
  if (histogram) {
    return {
      id: 'amplification',
      title: 'Attempts per user action',
      caption: 'Share of finished user actions by the number of attempts they took (1 = no retry), per variant.',
      datasets: [DATASETS.amplification],
      spec: topLevel({
        data: { name: DATASETS.amplification },
        transform: [{ filter: "datum.stat === 'histogram'" }],
        width: barWidth,
        height: 200,
        mark: { type: 'bar' },
        encoding: {
          x: { field: 'attempts', type: 'ordinal', title: 'attempts taken', axis: { labelAngle: 0 } },
          xOffset: { field: 'variant', type: 'nominal', scale: { domain: ctx.variants } },
          y: { field: 'share', type: 'quantitative', title: 'share of finished actions', axis: { format: '.0%' } },
          color: variantColor(ctx),
          tooltip: [{ field: 'variant' }, { field: 'attempts', title: 'attempts' }, { field: 'share', format: '.2%' }, { field: 'value', title: 'actions', format: ',d' }],
        },
      }),
    };
  }
  return {
    id: 'amplification',
    title: 'Attempts per user action',
    caption:
      'Mean, 99th percentile and maximum number of attempts a finished user action took, per variant (1 = no retry). ' +
      'summary.json has no histogram yet, so only these three statistics are drawn.',
    datasets: [DATASETS.amplification],
    spec: topLevel({
      data: { name: DATASETS.amplification },
      transform: [{ filter: "datum.stat !== 'histogram'" }],
      width: barWidth,
      height: 180,
      encoding: {
        x: { field: 'stat', type: 'nominal', title: null, sort: ['mean', 'p99', 'max'], axis: { labelAngle: 0 } },
        xOffset: { field: 'variant', type: 'nominal', scale: { domain: ctx.variants } },
        y: { field: 'value', type: 'quantitative', title: 'attempts per action' },
        color: variantColor(ctx),
      },
      layer: [
        { mark: { type: 'bar' }, encoding: { tooltip: [{ field: 'variant' }, { field: 'stat' }, { field: 'value', format: '.2f' }] } },
        { mark: { type: 'text', dy: -6, fontSize: 10, color: '#333' }, encoding: { text: { field: 'value', format: '.2~f' }, color: { value: '#333' } } },
      ],
    }),
  };
}
