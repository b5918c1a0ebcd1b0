/**
 * `retrystorm report DIR`: re-renders report.html and summary.md from a results folder
 * (summary.json, timeseries.csv, scenario.yaml) without simulating, e.g. after upgrading
 * retrystorm or after merging shards. `writeReport` is re-exported for `run`, which calls it
 * after writing its result files.
 */
import { resolve } from 'node:path';
import { writeReport } from '../report/html/write-report.js';
import { ResultsError } from '../report/html/results.js';
import { EXIT, UsageError } from './errors.js';
import type { Io } from './commands.js';

export { writeReport };

/** Only printing is needed: no simulation runs, so there is no progress to draw. */
export type ReportIo = Pick<Io, 'out' | 'err'>;

export async function reportCommand(dir: string, io: ReportIo): Promise<number> {
  const abs = resolve(dir);
  let files: string[];
  try {
    files = writeReport(abs);
  } catch (e) {
    if (e instanceof ResultsError) throw new UsageError(`cannot render a report: ${e.message}`);
    throw e;
  }
  const cwd = process.cwd() + '/';
  io.out(`wrote ${files.map((f) => (f.startsWith(cwd) ? f.slice(cwd.length) : f)).join(', ')}`);
  return EXIT.ok;
}
