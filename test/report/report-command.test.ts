/** reportCommand: re-renders a results folder without simulating; a bad folder is a one-line ResultsError (exit 2). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.js';
import { ResultsError } from '../../src/results/summary-json.js';
import { cleanupFixtures, small, tempDir } from './fixtures.js';

const io = () => {
  const out: string[] = [];
  return { out, io: { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s) } };
};

describe('reportCommand', () => {
  afterAll(cleanupFixtures);
  it('writes report.html and summary.md, the same bytes every time', async () => {
    const { dir } = await small();
    const { out, io: sink } = io();
    const first = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(await reportCommand(dir, sink)).toBe(0);
    expect(out.join('\n')).toMatch(/wrote .*report\.html, .*summary\.md/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8') === first).toBe(true);
    expect(existsSync(join(dir, 'report.html.tmp'))).toBe(false);
    expect(first.length).toBeLessThan(3_000_000);
  });

  it('refuses a missing or empty folder with a one-line ResultsError', async () => {
    const missing = join(tempDir('rs-'), 'absent');
    await expect(reportCommand(missing, io().io)).rejects.toThrow(ResultsError);
    await expect(reportCommand(missing, io().io)).rejects.toThrow(/absent: no such folder$/);
    await expect(reportCommand(tempDir('rs-'), io().io)).rejects.toThrow(/has no summary\.json/);
  });
});
