/**
 * Writes an experiment's files into its output folder: the results (summary.json, the CSVs,
 * the expectations as JUnit XML and the series as OpenMetrics text),
 * runs.json (for merge), the scenario as written, and what people read (report.html,
 * summary.md), all rendered from one ResultsBundle, the same value `retrystorm report DIR`
 * reads back. `run` and `merge` put the rendered files in place as one folder
 * (cli/output-folder.ts), and so does `report DIR` with the two files it renders again.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExperimentResult } from '../experiment/experiment.js';
import { runsJson } from '../experiment/runs-json.js';
import { storedName } from '../scenario/input-files.js';
import { FILES, bundleOf, type ResultsBundle } from '../results/bundle.js';
import { summaryJson } from '../results/summary-json.js';
import { seriesCsv } from '../results/series.js';
import { expectationsJunit, unjudgedChecks } from '../results/junit.js';
import { seriesOpenMetrics } from '../results/openmetrics.js';
import { renderReportHtml } from './html/page.js';
import { summaryMarkdown, type SummaryOptions } from './markdown.js';

/** How the written files refer to each other (summary.md's link to report.html). */
export type ReportOptions = SummaryOptions;

function writeWhole(dir: string, files: Array<[string, string]>): string[] {
  for (const [name, text] of files) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path + '.tmp', text);
    renameSync(path + '.tmp', path);
  }
  return files.map(([name]) => join(dir, name));
}

/** report.html and summary.md, rendered from a bundle read back by `report DIR`, for the caller to put in place. */
export function renderReport(b: ResultsBundle, opts: ReportOptions = {}): Array<[string, string]> {
  return [
    ['report.html', renderReportHtml(b)],
    ['summary.md', summaryMarkdown(b, opts)],
  ];
}

/** Writes report.html and summary.md into `dir` file by file (tools: the screenshots script). */
export function writeReport(b: ResultsBundle, dir: string, opts: ReportOptions = {}): string[] {
  return writeWhole(dir, renderReport(b, opts));
}

/**
 * Every output of a run (or a merge), rendered in memory: (file name, text) pairs for the
 * caller to put in place as a whole (cli/output-folder.ts), and the bundle they render.
 */
export function renderOutputs(x: ExperimentResult, opts: ReportOptions = {}): { files: Array<[string, string]>; bundle: ResultsBundle } {
  const bundle = bundleOf(x);
  const files: Array<[string, string]> = [
    [FILES.summary, summaryJson(bundle.results)],
    [FILES.series, seriesCsv(bundle.series)],
    [FILES.populations, seriesCsv(bundle.populationSeries)],
    // For the tools a team already has: a CI system's test view, and Prometheus and Grafana.
    [FILES.expectations, expectationsJunit(bundle.results, unjudgedChecks(x))],
    [FILES.openmetrics, seriesOpenMetrics(bundle)],
    ['runs.json', runsJson(x)],
    // The scenario as written, so results can be reviewed (and re-rendered) next to it.
    [FILES.scenario, x.loaded.source],
    // The files it read besides itself (configs, traces), so merge, run --reuse and diff read
    // the scenario from this folder alone (inputs/, scenario/input-files.ts).
    ...x.loaded.inputs.map((f): [string, string] => [storedName(f), f.text]),
    ['report.html', renderReportHtml(bundle)],
    ['summary.md', summaryMarkdown(bundle, opts)],
  ];
  return { files, bundle };
}

/** Writes every output into `dir` file by file (tests and tools; the CLI stages the folder as a whole). */
export function writeOutputs(x: ExperimentResult, dir: string, opts: ReportOptions = {}): { files: string[]; bundle: ResultsBundle } {
  mkdirSync(dir, { recursive: true });
  const { files, bundle } = renderOutputs(x, opts);
  return { files: writeWhole(dir, files), bundle };
}
