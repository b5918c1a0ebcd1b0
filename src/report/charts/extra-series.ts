/**
 * Columns of timeseries.csv that no dedicated chart knows (e.g. dependency or quota use,
 * added later): one small panel each, one line per variant, so a new column is visible in
 * the report the day it appears in the CSV, before anyone designs a chart for it.
 */
import { DATASETS, LINE_GAPS, faultLayer, pickParam, picked, timeX, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

export function extraSeriesChart(ctx: ChartContext, columns: Array<{ name: string; perSecond: boolean }>): Chart {
  return {
    id: 'extra',
    title: 'Other series',
    caption: 'Further columns of timeseries.csv, averaged across seeds; counts per bucket are shown per second.',
    datasets: [DATASETS.series, DATASETS.faultWindows],
    spec: topLevel({
      vconcat: columns.map((c, i) => ({
        width: ctx.width,
        height: 90,
        layer: [
          faultLayer(ctx),
          {
            data: { name: DATASETS.series },
            ...(i === 0 ? { params: [pickParam()] } : {}),
            mark: { type: 'line', strokeWidth: 1.3, invalid: LINE_GAPS },
            encoding: {
              x: timeX(ctx),
              y: { field: c.name, type: 'quantitative', title: c.perSecond ? `${c.name} (/s)` : c.name },
              color: variantColor(ctx),
              opacity: picked(),
              tooltip: [{ field: 'variant' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: c.name, title: c.perSecond ? `${c.name} (/s)` : c.name, format: ',.3~f' }],
            },
          },
        ],
      })),
      resolve: { scale: { x: 'shared' } },
    }),
  };
}
