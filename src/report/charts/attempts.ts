/**
 * First tries and retries stacked, per variant: how much of the load is the users' own
 * demand and how much the clients' retries added. In a storm the retry layer grows on top
 * of steady first tries and does not shrink after the fault ends.
 */
import { observedLayers, withObservedData } from './observed.js';
import { DATASETS, colorOf, faultLayer, onlyVariant, perVariant, timeX, tint, topLevel, type Chart, type ChartContext } from './common.js';

export function attemptsChart(ctx: ChartContext): Chart {
  return {
    id: 'attempts',
    title: 'First tries and retries',
    caption:
      'Attempts per second reaching the server, stacked: first tries (light) and retries (dark), one panel per variant on a shared scale. ' +
      'Retries that keep coming after the fault ends are what holds a service down.',
    datasets: withObservedData(ctx, ['attempts'], [DATASETS.series, DATASETS.faults]),
    spec: topLevel(
      perVariant(ctx, 110, (v) => ({
        // The fault band goes on top: a stacked area would hide it.
        layer: [
          {
            data: { name: DATASETS.series },
            transform: [
              onlyVariant(v),
              { fold: ['first_tries', 'retries'], as: ['kind', 'rate'] },
              { calculate: "datum.kind === 'first_tries' ? 'first tries' : 'retries'", as: 'what' },
            ],
            mark: { type: 'area' },
            encoding: {
              x: timeX(ctx),
              y: { field: 'rate', type: 'quantitative', stack: 'zero', title: 'attempts/s' },
              color: {
                field: 'what',
                type: 'nominal',
                scale: { domain: ['first tries', 'retries'], range: [tint(colorOf(ctx, v), 0.6), colorOf(ctx, v)] },
                legend: { orient: 'right', title: null },
              },
              order: { field: 'what', sort: 'ascending' },
              tooltip: [{ field: 'what', title: 'kind' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: 'rate', title: 'attempts/s', format: ',.1f' }],
            },
          },
          faultLayer(ctx, v),
          // An observed request rate is every attempt: the stack's top.
          ...observedLayers(ctx, ['attempts'], { title: 'attempts/s' }),
        ],
      }), { y: 'shared', color: 'independent' }),
    ),
  };
}
