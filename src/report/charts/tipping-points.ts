/**
 * The cliff search's chart: the probability of recovering against the searched parameter,
 * one curve per variant through the values the search tried (vertical bars: each value's
 * Wilson 95% interval), the level as a dashed line, and each variant's tipping point marked
 * on it with its interval. Where the runs went is visible too: the tried values bunch up at
 * the cliff.
 */
import type { SearchResults } from '../../results/search.js';
import { searchValueText } from '../search-view.js';
import { DATASETS, pickParam, picked, topLevel, variantColor, type Chart, type ChartContext } from './common.js';

type Row = Record<string, unknown>;

/** The axis unit: minutes for durations past 10 minutes, seconds below; rates per second; numbers as they are. */
export function searchAxis(s: SearchResults): { divisor: number; title: string } {
  if (s.kind === 'duration') return s.to > 600 ? { divisor: 60, title: `${s.parameter} (min)` } : { divisor: 1, title: `${s.parameter} (s)` };
  if (s.kind === 'rate') return { divisor: 1, title: `${s.parameter} (per second)` };
  return { divisor: 1, title: s.parameter };
}

/** The rows the chart reads: one per variant and tried value, and one per variant's tipping point found in the range. */
export function searchRows(s: SearchResults): { tried: Row[]; tipping: Row[] } {
  const { divisor } = searchAxis(s);
  const pct = (p: number) => `${Math.round(p * 100)}%`;
  const tried = s.variants.flatMap((v) => v.tried.map((t) => ({
    variant: v.variant,
    x: t.value / divisor,
    p: t.recovered / t.runs,
    lo: t.lo,
    hi: t.hi,
    value: searchValueText(s, t.value),
    runs: `${t.recovered} of ${t.runs} recovered`,
    interval: `${pct(t.lo)}–${pct(t.hi)}`,
  })));
  const tipping = s.variants.filter((v) => v.estimate !== null).map((v) => ({
    variant: v.variant,
    x: v.estimate! / divisor,
    lo: (v.lo ?? s.from) / divisor,
    hi: (v.hi ?? s.to) / divisor,
    level: s.level,
    value: searchValueText(s, v.estimate!),
    interval: `${v.lo === null ? `below ${searchValueText(s, s.from)}` : searchValueText(s, v.lo)}–${v.hi === null ? `above ${searchValueText(s, s.to)}` : searchValueText(s, v.hi)}`,
  }));
  return { tried, tipping };
}

export function tippingPointsChart(ctx: ChartContext, s: SearchResults): Chart {
  const axis = searchAxis(s);
  const x = { field: 'x', type: 'quantitative', title: axis.title, scale: { domain: [s.from / axis.divisor, s.to / axis.divisor], nice: false } };
  const y = { type: 'quantitative', title: 'probability of recovering', scale: { domain: [0, 1] }, axis: { format: '.0%' } };
  const tooltip = [{ field: 'variant' }, { field: 'value' }, { field: 'runs' }, { field: 'interval', title: 'probability (95%)' }];
  return {
    id: 'tipping-points',
    title: `Probability of recovering by ${s.parameter}: where each variant tips`,
    caption:
      `Each point is a value the search tried: the share of its runs that recovered within the hold (vertical bar: Wilson 95% interval). ` +
      `The dashed line is the level (${Math.round(s.level * 100)}%); a diamond marks each variant's tipping point, with its 95% interval as a horizontal bar. ` +
      'The tried values bunch up where the outcome was uncertain: that is where the search spent its runs.',
    datasets: [DATASETS.search, DATASETS.searchTipping],
    spec: topLevel({
      width: ctx.width,
      height: 260,
      layer: [
        { data: { values: [{ level: s.level }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#888' }, encoding: { y: { field: 'level', ...y } } },
        {
          data: { name: DATASETS.search },
          encoding: { x, color: variantColor(ctx) },
          layer: [
            { mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { y: { field: 'lo', ...y }, y2: { field: 'hi' }, opacity: picked(0.5) } },
            { params: [pickParam()], mark: { type: 'line', point: true }, encoding: { y: { field: 'p', ...y }, opacity: picked(), tooltip } },
          ],
        },
        {
          data: { name: DATASETS.searchTipping },
          encoding: { color: variantColor(ctx), y: { field: 'level', ...y } },
          layer: [
            { mark: { type: 'rule', strokeWidth: 3 }, encoding: { x: { ...x, field: 'lo' }, x2: { field: 'hi' }, opacity: picked(0.45) } },
            {
              mark: { type: 'point', shape: 'diamond', size: 160, filled: true, stroke: 'white', strokeWidth: 1 },
              encoding: { x, opacity: picked(), tooltip: [{ field: 'variant' }, { field: 'value', title: 'tipping point' }, { field: 'interval', title: '95% interval' }] },
            },
          ],
        },
      ],
    }),
  };
}
