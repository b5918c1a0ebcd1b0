/**
 * Writes an experiment's files into its output folder (then the HTML report and summary.md). Files are written whole to a
 * temporary name and renamed, so an interrupted write never leaves half a file behind.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentResult } from '../experiment/experiment.js';
import { summaryJson } from './summary-json.js';
import { timeseriesCsv } from './timeseries-csv.js';
import { runsJson } from '../experiment/runs-json.js';
import { writeReport } from './html/write-report.js';

export function writeOutputs(x: ExperimentResult, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['summary.json', summaryJson(x)],
    ['timeseries.csv', timeseriesCsv(x.results)],
    ['runs.json', runsJson(x)],
    // The scenario as written, so results can be reviewed (and re-rendered) next to it.
    ['scenario.yaml', x.loaded.source],
  ];
  for (const [name, text] of files) {
    const path = join(dir, name);
    writeFileSync(path + '.tmp', text);
    renameSync(path + '.tmp', path);
  }
  // The report is rendered from the files just written, exactly as `retrystorm report DIR` would.
  return [...files.map(([name]) => join(dir, name)), ...writeReport(dir)];
}
