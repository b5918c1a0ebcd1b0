/**
 * Everything the writers render, in one value: the Results, the time series (per run and per
 * population) and the scenario file as written. `run` builds it from the experiment in
 * memory; `report DIR` reads it from the folder's files, strictly. Both then render the same
 * bytes.
 */
import { readBounded } from '../scenario/bounded-read.js';
import { RESULT_FILE_BYTES, resultFileProblem } from '../experiment/result-file.js';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../experiment/experiment.js';
import { buildResults } from './build.js';
import { parseSeriesCsv, populationSeries, runSeries, type SeriesTable } from './series.js';
import { parseSummary } from './summary-json.js';
import { ResultsError } from './results-error.js';
import type { Results } from './results.js';

export interface ResultsBundle {
  results: Results;
  series: SeriesTable;
  populationSeries: SeriesTable;
  /** scenario.yaml as written. */
  scenarioSource: string;
}

export const FILES = {
  summary: 'summary.json',
  series: 'timeseries.csv',
  populations: 'populations.csv',
  scenario: 'scenario.yaml',
  /** The expectations as JUnit XML, for CI systems' test views (src/results/junit.ts). */
  expectations: 'expectations.xml',
  /** The time series as OpenMetrics text, for Prometheus' backfill and Grafana (src/results/openmetrics.ts). */
  openmetrics: 'timeseries.openmetrics.txt',
} as const;

export function bundleOf(x: ExperimentResult): ResultsBundle {
  const results = buildResults(x);
  return {
    results,
    series: runSeries(x.results, results.columns.run),
    populationSeries: populationSeries(x.results, results.columns.population),
    scenarioSource: x.loaded.source,
  };
}

function read(dir: string, name: string): string {
  const path = join(dir, name);
  const r = readBounded(path, RESULT_FILE_BYTES);
  if (r.ok) return r.text;
  if (r.why === 'missing') throw new ResultsError(`${dir} has no ${name}: give the folder written by "retrystorm run --out" or "retrystorm merge"`);
  throw new ResultsError(resultFileProblem(path, r));
}

export function readResultsFolder(dir: string): ResultsBundle {
  if (!existsSync(dir)) throw new ResultsError(`${dir}: no such folder`);
  if (!statSync(dir).isDirectory()) throw new ResultsError(`${dir} is a file; give the folder that holds summary.json`);
  const results = parseSummary(read(dir, FILES.summary), join(dir, FILES.summary));
  return {
    results,
    series: parseSeriesCsv(read(dir, FILES.series), results.columns.run, false, join(dir, FILES.series)),
    populationSeries: parseSeriesCsv(read(dir, FILES.populations), results.columns.population, true, join(dir, FILES.populations)),
    scenarioSource: read(dir, FILES.scenario),
  };
}
