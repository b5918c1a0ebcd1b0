/**
 * Renders report.html and summary.md into a results folder from the files already saved
 * there, never from in-memory results: `run` and `report` then produce the same bytes, and
 * a report can be re-rendered after the renderer improves without simulating again.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadResults } from './results.js';
import { renderReportHtml } from './page.js';
import { summaryMarkdown } from '../markdown.js';

/** Writes DIR/report.html and DIR/summary.md; returns their paths. Throws ResultsError on an unreadable folder. */
export function writeReport(dir: string): string[] {
  const results = loadResults(dir);
  const files: Array<[string, string]> = [
    ['report.html', renderReportHtml(results)],
    ['summary.md', summaryMarkdown(results)],
  ];
  for (const [name, text] of files) {
    // Whole file to a temporary name, then rename: a reader never sees half a report.
    const path = join(dir, name);
    writeFileSync(path + '.tmp', text);
    renameSync(path + '.tmp', path);
  }
  return files.map(([name]) => join(dir, name));
}
