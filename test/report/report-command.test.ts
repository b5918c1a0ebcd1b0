/** reportCommand: re-renders a results folder without simulating; a bad folder is a one-line ResultsError (exit 2). */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

  it('links summary.md to report.html where --report-url or RETRYSTORM_REPORT_URL says (the CLI as a process)', async () => {
    const root = resolve(import.meta.dirname, '../..');
    expect(existsSync(join(root, 'dist/bundle/cli/main.js')), 'dist/ is missing: run `npm run build`').toBe(true);
    const { dir } = await small();
    const cli = (args: string[], env: Record<string, string>) => {
      const { RETRYSTORM_REPORT_URL: _, ...rest } = process.env;
      const r = spawnSync(process.execPath, ['bin/retrystorm.js', 'report', dir, ...args], { cwd: root, env: { ...rest, ...env }, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(join(dir, 'summary.md'), 'utf8');
    };
    expect(cli([], {})).toContain('](report.html)');
    expect(cli([], { RETRYSTORM_REPORT_URL: 'https://ci.example/a/1/report.html' })).toContain('](https://ci.example/a/1/report.html)');
    // The flag wins over the environment.
    const md = cli(['--report-url', 'https://ci.example/b/2/report.html'], { RETRYSTORM_REPORT_URL: 'https://ci.example/a/1/report.html' });
    expect(md).toContain('](https://ci.example/b/2/report.html)');
    expect(md).not.toContain('ci.example/a/1');
  });

  it('refuses a missing or empty folder with a one-line ResultsError', async () => {
    const missing = join(tempDir('rs-'), 'absent');
    await expect(reportCommand(missing, io().io)).rejects.toThrow(ResultsError);
    await expect(reportCommand(missing, io().io)).rejects.toThrow(/absent: no such folder$/);
    await expect(reportCommand(tempDir('rs-'), io().io)).rejects.toThrow(/has no summary\.json/);
  });
});
