/**
 * `retrystorm report DIR`: re-renders report.html and summary.md from a results folder
 * (summary.json, timeseries.csv, populations.csv, scenario.yaml), parsed strictly, without
 * simulating: e.g. after upgrading the renderer or after merging shards.
 */
import { resolve } from 'node:path';
import { readResultsFolder } from '../results/bundle.js';
import { writeReport, type ReportOptions } from '../report/write.js';
import { EXIT } from './errors.js';
import type { Io } from './scenario-input.js';

/** Only printing is needed: no simulation runs, so there is no progress to draw. */
export type ReportIo = Pick<Io, 'out' | 'err'>;

export async function reportCommand(dir: string, io: ReportIo, opts: ReportOptions = {}): Promise<number> {
  const abs = resolve(dir);
  const files = writeReport(readResultsFolder(abs), abs, opts);
  const cwd = process.cwd() + '/';
  io.out(`wrote ${files.map((f) => (f.startsWith(cwd) ? f.slice(cwd.length) : f)).join(', ')}`);
  return EXIT.ok;
}
