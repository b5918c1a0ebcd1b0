/**
 * `retrystorm report DIR`: re-renders report.html and summary.md from a results folder
 * (summary.json, timeseries.csv, populations.csv, scenario.yaml), parsed strictly, without
 * simulating: e.g. after upgrading the renderer or after merging shards. The folder is taken
 * as `--out` is (locked; a commit a killed writer left half done finished first), and the two
 * files are replaced together or not at all: a full disk exits 73 with the folder as it was.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readResultsFolder } from '../results/bundle.js';
import { renderReport, type ReportOptions } from '../report/write.js';
import { EXIT } from './errors.js';
import { OutputFolder } from './output-folder.js';
import type { Io } from './scenario-input.js';

/** Only printing is needed: no simulation runs, so there is no progress to draw. */
export type ReportIo = Pick<Io, 'out' | 'err'>;

export async function reportCommand(dir: string, io: ReportIo, opts: ReportOptions = {}): Promise<number> {
  const say = (line: string) => io.err(line);
  OutputFolder.settle(dir, say);
  // A folder that is not there is said as the reader says it, with no lock taken beside it.
  if (!existsSync(dir)) readResultsFolder(resolve(dir));
  const folder = OutputFolder.open(dir, say);
  let files: string[];
  try {
    files = folder.rewrite(renderReport(readResultsFolder(folder.dir), opts));
  } finally {
    folder.release();
  }
  const cwd = process.cwd() + '/';
  io.out(`wrote ${files.map((f) => (f.startsWith(cwd) ? f.slice(cwd.length) : f)).join(', ')}`);
  return EXIT.ok;
}
