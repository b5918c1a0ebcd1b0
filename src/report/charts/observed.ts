/**
 * A real incident's observed series drawn over the simulated ones (the scenario's observed:
 * block): a black dashed line with small points, labelled "observed" at its start, on every
 * chart that draws the column it stands beside, on that chart's own axes. Black is never a
 * variant's colour in a small experiment (the palette's 7th), and the dash tells it apart
 * even then.
 */
import { DATASETS, LINE_GAPS, timeX, type ChartContext } from './common.js';

type Json = Record<string, unknown>;

/** Whether any of `columns` has an observed series: a chart adds the layer and the dataset only then. */
export function hasObserved(ctx: ChartContext, columns: readonly string[]): boolean {
  return (ctx.observed ?? []).some((c) => columns.includes(c));
}

/** The datasets a chart reads, with the observed one when it draws an observed series. */
export function withObservedData(ctx: ChartContext, columns: readonly string[], datasets: string[]): string[] {
  return hasObserved(ctx, columns) ? [...datasets, DATASETS.observed] : datasets;
}

/**
 * The observed layers for `columns` (none when nothing observed stands beside them): `y`
 * is the chart's own y encoding without its field (scale, axis, title), so the observed values
 * share the simulated axis; `value` is already in the column's chart unit (src/results/observed-fit.ts).
 */
export function observedLayers(ctx: ChartContext, columns: readonly string[], y: Json = {}, floor?: number): Json[] {
  if (!hasObserved(ctx, columns)) return [];
  const data = { name: DATASETS.observed };
  const only: Json[] = [{ filter: { field: 'column', oneOf: [...columns] } }, { calculate: floor === undefined ? 'datum.value' : `datum.value === null ? null : max(datum.value, ${floor})`, as: 'drawn' }];
  const yEnc = { ...y, field: 'drawn', type: 'quantitative' };
  return [
    {
      data,
      name: 'observed',
      transform: only,
      mark: { type: 'line', color: 'black', strokeDash: [4, 3], strokeWidth: 1.4, invalid: LINE_GAPS, point: { filled: true, size: 9, color: 'black' } },
      encoding: {
        x: timeX(ctx),
        y: yEnc,
        detail: { field: 'name' },
        tooltip: [{ field: 'label', title: 'observed' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: 'value', title: 'value', format: ',.3~f' }],
      },
    },
    {
      data,
      transform: [...only, { filter: 'datum.first === true' }],
      mark: { type: 'text', align: 'left', dx: 4, dy: -6, fontSize: 10, color: 'black' },
      encoding: { x: timeX(ctx), y: yEnc, text: { field: 'label' } },
    },
  ];
}
