/** reportCommand: re-renders a results folder without simulating; bad folders are usage errors (exit 2). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.js';
import { UsageError } from '../../src/cli/errors.js';
import { cleanupFixtures, oldShape, tempDir } from './fixtures.js';

const io = () => {
  const out: string[] = [];
  return { out, io: { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s) } };
};

describe('reportCommand', () => {
  afterAll(cleanupFixtures);
  it('writes report.html and summary.md, the same bytes every time', async () => {
    const dir = oldShape();
    const { out, io: sink } = io();
    expect(await reportCommand(dir, sink)).toBe(0);
    expect(out.join('\n')).toMatch(/wrote .*report\.html, .*summary\.md/);
    const first = readFileSync(join(dir, 'report.html'), 'utf8');
    await reportCommand(dir, sink);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(first);
    expect(existsSync(join(dir, 'report.html.tmp'))).toBe(false);
    expect(first.length).toBeLessThan(3_000_000);
  });

  it('turns a missing or malformed folder into a one-line UsageError', async () => {
    const missing = join(tempDir('rs-'), 'absent');
    await expect(reportCommand(missing, io().io)).rejects.toThrow(UsageError);
    await expect(reportCommand(missing, io().io)).rejects.toThrow(/^cannot render a report: .*absent: no such folder$/);
    await expect(reportCommand(tempDir('rs-'), io().io)).rejects.toThrow(/has no summary\.json/);
  });
});
