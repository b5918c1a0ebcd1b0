// Service times from observed latency through the command line, as a user runs it
// (docs/traces.md): a scenario whose serviceTime is read from a Prometheus histogram beside it
// runs on worker threads to its results, the server as busy as the histogram's mean says; a
// histogram that cannot be read is refused with exit 2 and one positioned message, no stack
// trace.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

let dir: string;

/** A range query of the raw bucket counters over an hour: 0-100 ms 250, 100-200 ms 500, 200-500 ms 250 observations. */
const histogram = (bad = false) => JSON.stringify({
  status: 'success',
  data: {
    resultType: 'matrix',
    result: [['+Inf', 1000], ['0.1', 250], ['0.2', bad ? 200 : 750], ['0.5', 1000]].map(([le, n]) => ({
      metric: { __name__: 'http_request_duration_seconds_bucket', job: 'api', le },
      values: [[1_765_100_000, '40'], [1_765_103_600, String(40 + (n as number))]],
    })),
  },
});

const scenario = (file: string) => [
  'name: observed-latency',
  'horizon: 10m',
  'seed: 1',
  'clients:',
  '  app:',
  '    arrivals: { kind: constant, rate: 20/s }',
  '    retry: { timeout: 5s }',
  'server:',
  '  slots: 8',
  `  serviceTime: { kind: empirical, file: ${file}, format: prometheus }`,
].join('\n') + '\n';

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-latency-cli-'));
});

describe('retrystorm run with a service time from a Prometheus histogram', () => {
  it('runs on worker threads and keeps the server as busy as the histogram\'s mean says', async () => {
    writeFileSync(join(dir, 'latency.json'), histogram());
    writeFileSync(join(dir, 'ok.yaml'), scenario('latency.json'));
    const out = join(dir, 'ok-out');
    const r = await runCliProcess(dir, ['run', 'ok.yaml', '--seeds', '2', '--workers', '2', '--out', out]);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { variants: Array<{ points: Array<{ perSeed: Array<{ measures: { utilisation: number } }> }> }> };
    // Mean service time: 0.25 x 50 ms + 0.5 x 150 ms + 0.25 x 350 ms = 175 ms; 20/s x 0.175 s / 8 slots = 0.4375.
    for (const seed of summary.variants[0].points[0].perSeed) expect(seed.measures.utilisation).toBeCloseTo(0.4375, 1);
    const mean = summary.variants[0].points[0].perSeed.reduce((s, x) => s + x.measures.utilisation, 0) / 2;
    expect(Math.abs(mean - 0.4375)).toBeLessThan(0.02);
  }, 120_000);

  it('refuses non-cumulative buckets: exit 2, the file and entry, no stack trace', async () => {
    writeFileSync(join(dir, 'bad.json'), histogram(true));
    writeFileSync(join(dir, 'bad.yaml'), scenario('bad.json'));
    const r = await runCliProcess(dir, ['run', 'bad.yaml', '--out', join(dir, 'bad-out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.json  data.result[2].values: the buckets are not cumulative: le=0.2 counts 200, fewer than le=0.1 below it (250)');
    expect(r.stderr).toContain('(read for server.serviceTime)');
    expect(r.stderr + r.stdout).not.toMatch(/^\s+at /m);
  }, 60_000);
});
