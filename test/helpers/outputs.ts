// The bytes an experiment's result files would hold, without writing them: for tests that
// compare runs, shards and merges byte for byte.
import type { ExperimentResult } from '../../src/experiment/experiment.js';
import { runsJson } from '../../src/experiment/runs-json.js';
import { bundleOf } from '../../src/results/bundle.js';
import { summaryJson } from '../../src/results/summary-json.js';
import { seriesCsv } from '../../src/results/series.js';

export function outputText(x: ExperimentResult): { summary: string; series: string; populations: string; runs: string } {
  const b = bundleOf(x);
  return { summary: summaryJson(b.results), series: seriesCsv(b.series), populations: seriesCsv(b.populationSeries), runs: runsJson(x) };
}

/** summary.json's text. */
export const summaryText = (x: ExperimentResult): string => outputText(x).summary;
/** timeseries.csv's text. */
export const seriesText = (x: ExperimentResult): string => outputText(x).series;
