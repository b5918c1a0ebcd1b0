/**
 * Writes an experiment's files into its output folder: the results (summary.json, the CSVs),
 * runs.json (for merge), the scenario as written, and what people read (report.html,
 * summary.md), all rendered from one ResultsBundle, the same value `retrystorm report DIR`
 * reads back. Files are written whole to a temporary name and renamed, so an interrupted
 * write never leaves half a file behind.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../experiment/experiment.js';
import { runsJson } from '../experiment/runs-json.js';
import { FILES, bundleOf, type ResultsBundle } from '../results/bundle.js';
import { summaryJson } from '../results/summary-json.js';
import { seriesCsv } from '../results/series.js';
import { renderReportHtml } from './html/page.js';
import { summaryMarkdown } from './markdown.js';

function writeWhole(dir: string, files: Array<[string, string]>): string[] {
  for (const [name, text] of files) {
    const path = join(dir, name);
    writeFileSync(path + '.tmp', text);
    renameSync(path + '.tmp', path);
  }
  return files.map(([name]) => join(dir, name));
}

/** report.html and summary.md, from the bundle (in memory after a run, read back by `report DIR`). */
export function writeReport(b: ResultsBundle, dir: string): string[] {
  return writeWhole(dir, [
    ['report.html', renderReportHtml(b)],
    ['summary.md', summaryMarkdown(b)],
  ]);
}

/** Every output of a run (or a merge); returns the paths written, and the bundle the writers rendered. */
export function writeOutputs(x: ExperimentResult, dir: string): { files: string[]; bundle: ResultsBundle } {
  mkdirSync(dir, { recursive: true });
  const bundle = bundleOf(x);
  const files = writeWhole(dir, [
    [FILES.summary, summaryJson(bundle.results)],
    [FILES.series, seriesCsv(bundle.series)],
    [FILES.populations, seriesCsv(bundle.populationSeries)],
    ['runs.json', runsJson(x)],
    // The scenario as written, so results can be reviewed (and re-rendered) next to it.
    [FILES.scenario, x.loaded.source],
  ]);
  return { files: [...files, ...writeReport(bundle, dir)], bundle };
}
