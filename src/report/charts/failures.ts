/**
 * Failed attempts by cause, per variant, stacked: every `fail_*` (and future rejection)
 * column of timeseries.csv, whatever causes exist, so a new cause shows up without a code
 * change. Causes get their own muted colours, shared across panels, so they are not
 * mistaken for variants (whose names title the panels, in the variant's colour).
 */
import { DATASETS, faultLayer, onlyVariant, perVariant, timeX, topLevel, type Chart, type ChartContext } from './common.js';

/** Paul Tol's "light" scheme: distinct to colour-blind readers, and paler than any variant's colour. */
const CAUSE_COLORS = ['#77AADD', '#EE8866', '#EEDD88', '#FFAABB', '#99DDFF', '#44BB99', '#BBCC33', '#AAAA00', '#DDDDDD'];

/** "fail_queue_full" → "queue full", "rejected_rate_limit" → "rejected: rate limit". */
export function causeLabel(column: string): string {
  const m = /^([a-z]+)_(.*)$/i.exec(column);
  if (!m) return column;
  const rest = m[2].replace(/_/g, ' ');
  return /^fail/i.test(m[1]) ? rest : `${m[1].replace(/s$/, '')}: ${rest}`;
}

export function failuresChart(ctx: ChartContext, columns: string[]): Chart {
  const labels = columns.map(causeLabel);
  // Column names come from the CSV header; the adapter keeps only [A-Za-z0-9_] names, and
  // JSON.stringify makes each a valid string literal in the expression anyway.
  const label = columns.reduceRight((acc, c, i) => `datum.cause === ${JSON.stringify(c)} ? ${JSON.stringify(labels[i])} : ${acc}`, 'datum.cause');
  return {
    id: 'failures',
    title: 'Failures by cause',
    caption:
      'Failed attempts per second, stacked by cause (' + labels.join(', ') + '), one panel per variant on a shared scale. ' +
      'Timeouts are attempts the client stopped waiting for; dependency failures come from the fault itself.',
    datasets: [DATASETS.series, DATASETS.faults],
    spec: topLevel(
      perVariant(ctx, 100, (v) => ({
        // The fault band goes on top: a stacked area would hide it.
        layer: [
          {
            data: { name: DATASETS.series },
            transform: [
              onlyVariant(v),
              { fold: columns, as: ['cause', 'rate'] },
              { calculate: label, as: 'what' },
              { calculate: `indexof(${JSON.stringify(labels)}, datum.what)`, as: 'rank' },
            ],
            mark: { type: 'area' },
            encoding: {
              x: timeX(ctx),
              y: { field: 'rate', type: 'quantitative', stack: 'zero', title: 'failed/s' },
              color: {
                field: 'what',
                type: 'nominal',
                scale: { domain: labels, range: labels.map((_, k) => CAUSE_COLORS[k % CAUSE_COLORS.length]) },
                legend: { orient: 'top', title: 'cause' },
              },
              // Stack in legend order, first cause at the bottom.
              order: { field: 'rank', type: 'quantitative', sort: 'ascending' },
              tooltip: [{ field: 'what', title: 'cause' }, { field: 't', title: `time (${ctx.time.unit})`, format: '.2~f' }, { field: 'rate', title: 'failed attempts/s', format: ',.1f' }],
            },
          },
          faultLayer(ctx, v),
        ],
      }), { y: 'shared', color: 'shared' }),
    ),
  };
}
