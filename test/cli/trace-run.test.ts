// Recorded traffic through the command line, as a user runs it (docs/traces.md): the shipped
// recorded-day scenario, whose trace is read from the CSV beside it once by the loader and
// handed to the worker threads with the scenario, runs to its results; a trace that cannot be
// replayed is refused with exit 2 and one positioned message, no stack trace.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-trace-cli-'));
});

describe('retrystorm run with arrivals kind trace', () => {
  it('runs scenarios/recorded-day.yaml on worker threads and writes its results', async () => {
    const out = join(dir, 'day');
    const r = await runCliProcess(ROOT, ['run', 'scenarios/recorded-day.yaml', '--seeds', '1', '--workers', '2', '--out', out]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { variants: Array<{ name: string }> };
    expect(summary.variants.map((v) => v.name)).toEqual(['as-is', 'backoff-jitter', 'no-retries']);
    // The recorded requests of 10:00-14:00 started, within Poisson noise (the no-retries variant at load 1).
    const rows = readFileSync(join(ROOT, 'scenarios/recorded-day.csv'), 'utf8').split('\n').filter((l) => /^\d{4}-/.test(l));
    const recorded = rows.slice(600, 840).reduce((s, l) => s + Number(l.split(',')[1]), 0);
    const csv = readFileSync(join(out, 'timeseries.csv'), 'utf8').trim().split('\n');
    const header = csv[0].split(',');
    const [variant, point, started] = ['variant', 'point', 'actions_started'].map((c) => header.indexOf(c));
    expect(started).toBeGreaterThan(-1);
    const total = csv.slice(1).map((l) => l.split(',')).filter((c) => c[variant] === 'no-retries' && (point < 0 || c[point] === '0')).reduce((s, c) => s + Number(c[started]), 0);
    expect(Math.abs(total - recorded)).toBeLessThan(4 * Math.sqrt(recorded));
  }, 120_000);

  it('refuses a trace out of time order: exit 2, the file and line, no stack trace', async () => {
    writeFileSync(join(dir, 'times.csv'), 'time\n0.5\n1.25\n1.0\n2\n');
    writeFileSync(join(dir, 'bad.yaml'), [
      'name: bad',
      'horizon: 1m',
      'clients:',
      '  app:',
      '    arrivals: { kind: trace, file: times.csv, format: csv }',
      '    retry: { timeout: 1s }',
      'server: { slots: 1, serviceTime: { kind: constant, value: 1ms } }',
    ].join('\n') + '\n');
    const r = await runCliProcess(dir, ['run', 'bad.yaml', '--out', join(dir, 'bad-out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('times.csv:4:1  the request at 1.0 comes before the one above it (1.25): request times must be in time order');
    expect(r.stderr).toContain('(read for clients.app.arrivals)');
    expect(r.stderr + r.stdout).not.toMatch(/^\s+at /m);
  }, 60_000);
});
