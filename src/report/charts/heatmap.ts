/**
 * The comparison at a glance: one cell per variant and sweep point, coloured from best
 * (pale) to worst (dark) on the measure chosen in the selector under the chart (recovery
 * time, perceived outage, peak load, success, wasted work), with the value written in the
 * cell. "not recovered" and "unhealthy before the fault" have their own colours, outside the
 * scale: they are not a long recovery or a bad value, they are a different outcome.
 */
import { DATASETS, topLevel, type Chart, type ChartContext } from './common.js';

/** The measures the selector offers, in this order, when the results have them. */
export const HEATMAP_MEASURES = ['recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'successRatio', 'wastedWorkShare'] as const;

export const HEATMAP_STATUS = { notRecovered: 'not recovered', unhealthy: 'unhealthy before the fault', none: 'no value' } as const;

export interface HeatmapAxis {
  /** Sweep point labels in sweep order (the x axis). */
  points: string[];
  /** The measures offered: key and label, the first shown first. */
  measures: Array<{ key: string; label: string }>;
}

export function heatmapChart(ctx: ChartContext, axis: HeatmapAxis): Chart {
  const step = Math.max(56, Math.min(110, Math.floor(ctx.width / Math.max(1, axis.points.length))));
  const x = { field: 'point', type: 'ordinal', title: null, sort: axis.points, axis: { orient: 'top', labelAngle: 0, labelLimit: step * 2, domain: false, ticks: false, grid: false } };
  const y = { field: 'variant', type: 'nominal', title: null, sort: ctx.variants, axis: { domain: false, ticks: false, grid: false, labelLimit: 180 } };
  const mine = { filter: 'datum.measure === measure' };
  return {
    id: 'heatmap',
    title: 'Every variant at every sweep point',
    caption:
      'One cell per variant and sweep point, pale for the best value of the chosen measure and dark for the worst (the direction follows the measure: shorter recovery, higher success). ' +
      'Purple: not recovered (at least one seed still down when the run ended); grey: unhealthy before the fault. Choose the measure under the chart.',
    datasets: [DATASETS.heatmap],
    spec: topLevel({
      data: { name: DATASETS.heatmap },
      params: [{
        name: 'measure',
        value: axis.measures[0].key,
        bind: { input: 'select', options: axis.measures.map((m) => m.key), labels: axis.measures.map((m) => m.label), name: 'Measure ' },
      }],
      transform: [mine],
      width: { step },
      height: { step: 26 },
      encoding: { x, y },
      layer: [
        {
          transform: [{ filter: "datum.status === 'ok'" }],
          mark: { type: 'rect', stroke: '#fff', strokeWidth: 1 },
          encoding: {
            color: { field: 'score', type: 'quantitative', title: 'best → worst', scale: { scheme: 'orangered', domain: [0, 1] }, legend: { orient: 'right', labels: false, gradientLength: 80, titleFontWeight: 'normal' } },
            tooltip: [{ field: 'variant' }, { field: 'point', title: 'sweep point' }, { field: 'label', title: 'measure' }, { field: 'text', title: 'value' }, { field: 'interval', title: '95% interval' }],
          },
        },
        {
          transform: [{ filter: "datum.status !== 'ok'" }],
          mark: { type: 'rect', stroke: '#fff', strokeWidth: 1 },
          encoding: {
            fill: {
              field: 'status',
              type: 'nominal',
              title: null,
              scale: { domain: [HEATMAP_STATUS.notRecovered, HEATMAP_STATUS.unhealthy, HEATMAP_STATUS.none], range: ['#5e3c99', '#9e9e9e', '#f0f0f0'] },
              legend: { orient: 'right' },
            },
            tooltip: [{ field: 'variant' }, { field: 'point', title: 'sweep point' }, { field: 'label', title: 'measure' }, { field: 'text', title: 'value' }],
          },
        },
        {
          mark: { type: 'text', fontSize: 11 },
          encoding: {
            text: { field: 'text' },
            color: { condition: { test: "datum.status === 'not recovered' || datum.status === 'unhealthy before the fault' || datum.score > 0.6", value: '#fff' }, value: '#1f2328' },
          },
        },
      ],
      resolve: { scale: { color: 'independent' } },
    }),
  };
}
