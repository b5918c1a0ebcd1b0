/**
 * Recovery-time curves from a sweep: recovery time (mean across seeds, with its 95%
 * interval) against the swept value, one line per variant. A point where the service did
 * not recover is not a number, so it is not drawn as one: it sits in the "not recovered"
 * strip above the curve, and the curve breaks there instead of joining its neighbours.
 */
import { DATASETS, pickParam, picked, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

export interface SweepAxis {
  /** Axis title, e.g. "faults[0].duration (min)". */
  title: string;
  /** What is swept, in words for the chart's title ("outage length", or the parameter's path). */
  name: string;
  /** Distinct values of the second parameter, each a panel; [] with one parameter. */
  groups: string[];
  /** True when values are labels, not numbers (then x is ordinal). */
  ordinal: boolean;
  /** The variants with at least one point not recovered, in scenario order: one row each in the strip. */
  notRecovered: string[];
  /**
   * When recovery times span so much that a linear axis would flatten most of them (one
   * outlier hours long), the ticks of a symmetric-logarithmic axis (linear below one time
   * unit, logarithmic above: 0, 1, 2, 5, 10, 20…), so minutes and hours are both read; null
   * for a linear axis from 0.
   */
  logTime: number[] | null;
}

/** The recovery-time axis's scale: linear from 0, or symlog (linear up to one unit, then logarithmic). */
export function recoveryScale(axis: Pick<SweepAxis, 'logTime'>): Record<string, unknown> {
  return axis.logTime ? { type: 'symlog', constant: 1 } : { zero: true };
}

export function recoveryCurveChart(ctx: ChartContext, axis: SweepAxis): Chart {
  const x = axis.ordinal
    ? { field: 'label', type: 'ordinal', title: axis.title, sort: { field: 'x' }, axis: { labelAngle: 0 } }
    : { field: 'x', type: 'quantitative', title: axis.title, scale: { zero: false, nice: false, padding: 14 } };
  const tooltip = [
    { field: 'variant' },
    { field: 'label', title: 'value' },
    { field: 'recovery', title: 'recovery time' },
    { field: 'fractionText', title: 'seeds recovered' },
  ];
  const panel = (group: string | null) => {
    const mine = group === null ? [] : [{ filter: { field: 'group', equal: group } }];
    return {
      ...(group === null ? {} : { title: group }),
      vconcat: [
        ...(axis.notRecovered.length === 0 ? [] : [{
          // One row per variant that failed somewhere, named: crosses never sit on each other.
          width: ctx.width,
          height: 16 * axis.notRecovered.length,
          title: { text: '✕ not recovered (at least one seed still down when the run ended), or unhealthy before the fault', color: '#9a3412', fontSize: 11, fontWeight: 'normal' },
          transform: [...mine, { filter: '!datum.recovered' }],
          params: [pickParam()],
          mark: { type: 'point', shape: 'cross', size: 110, filled: true, strokeWidth: 0 },
          encoding: {
            opacity: picked(),
            x: { ...x, axis: null },
            y: { field: 'variant', type: 'nominal', title: null, scale: { domain: axis.notRecovered }, axis: { ticks: false, domain: false, labelLimit: 140 } },
            color: variantColor(ctx),
            tooltip,
          },
        }]),
        {
          width: ctx.width,
          height: 220,
          transform: mine,
          encoding: { x, color: variantColor(ctx) },
          layer: [
            {
              transform: [{ filter: 'datum.recovered && isValid(datum.lo)' }],
              mark: { type: 'rule', strokeWidth: 1.2 },
              encoding: { y: { field: 'lo', type: 'quantitative', scale: recoveryScale(axis) }, y2: { field: 'hi' }, opacity: picked(0.7) },
            },
            {
              // The curve breaks at points that did not recover (rt is null there).
              params: [pickParam()],
              mark: { type: 'line', point: true, invalid: 'break-paths-show-domains' },
              encoding: { y: { field: 'rt', type: 'quantitative', title: `recovery time (${ctx.time.unit}${axis.logTime ? ', log scale above 1' : ''})`, scale: recoveryScale(axis), ...(axis.logTime ? { axis: { values: axis.logTime } } : {}) }, opacity: picked(), tooltip },
            },
          ],
        },
      ],
      resolve: { scale: { x: 'shared' } },
    };
  };
  const body = axis.groups.length > 0 ? { vconcat: axis.groups.map(panel) } : panel(null);
  return {
    id: 'recovery',
    title: `Recovery time by ${axis.name}`,
    caption:
      'Mean recovery time across seeds (vertical bars: 95% interval) at each value of the swept parameter. ' +
      'Crosses in the "not recovered" strip above (one row per variant) mark values where at least one seed had not recovered when the run ended: a metastable failure, not a long recovery; the curve breaks there.' +
      (axis.logTime ? ` The time axis is linear up to 1 ${ctx.time.unit} and logarithmic above, so recoveries of minutes and of hours are both read.` : ''),
    datasets: [DATASETS.sweep],
    spec: topLevel({ data: { name: DATASETS.sweep }, ...body }),
  };
}
