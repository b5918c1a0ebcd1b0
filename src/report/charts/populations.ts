/**
 * Who fared how at the compared point: per population, the users' success and perceived
 * outage, one bar per variant in its colour, so "the service recovered" can be checked
 * against whose users it recovered for (the legacy app, the queue workers, the partner).
 * A population whose role is not user is labelled with it (partner, internal, attacker): a
 * partner's refusals above its contract, or an attacker's, are the service working.
 */
import { DATASETS, pickParam, picked, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

export function populationsChart(ctx: ChartContext, populations: string[], at: string | null): Chart {
  const step = Math.max(12, Math.min(22, Math.floor(ctx.width / Math.max(1, populations.length * ctx.variants.length))));
  const x = { field: 'population', type: 'nominal', title: null, sort: populations, axis: { labelAngle: 0, labelLimit: 160 } };
  const panel = (field: string, title: string, format: string, first: boolean) => ({
    width: { step },
    height: 150,
    ...(first ? { params: [pickParam()] } : {}),
    mark: { type: 'bar' },
    encoding: {
      x,
      xOffset: { field: 'variant', type: 'nominal', scale: { domain: ctx.variants } },
      y: { field, type: 'quantitative', title, axis: { format } },
      color: { ...variantColor(ctx), legend: { orient: 'top', direction: 'horizontal', title: null, symbolType: 'square' } },
      opacity: picked(),
      tooltip: [{ field: 'variant' }, { field: 'population' }, { field: 'successText', title: 'success' }, { field: 'outageText', title: 'perceived outage' }, { field: 'amplificationText', title: 'attempts per action' }],
    },
  });
  return {
    id: 'populations',
    title: `Success and perceived outage by population${at ? ` (${at})` : ''}`,
    caption: 'Each population\'s users: the share of their actions that succeeded (top) and the time their success ratio stayed below the threshold (bottom), one bar per variant. Click a legend entry to show one variant.',
    datasets: [DATASETS.populations],
    spec: topLevel({
      data: { name: DATASETS.populations },
      vconcat: [panel('success', 'success', '.0%', true), panel('outageMin', `perceived outage (${ctx.time.unit})`, ',.0f', false)],
      resolve: { scale: { x: 'shared' } },
    }),
  };
}
