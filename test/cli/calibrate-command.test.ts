// `retrystorm calibrate` as a user meets it, as a process: a scenario whose observed incident
// came from a known world, fitted from another start; it writes calibration.json and .md into
// --out and the fitted scenario beside the original, the same bytes for any number of workers,
// and says what is wrong, with exit 2, when there is nothing to calibrate.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCliProcess } from '../helpers/cli.js';
import { loadScenario, loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const WORLD = (rate: string, mean: string) => `name: small-incident
horizon: 5m
seed: 1
measures: { bucket: 20s, hold: 1m }
clients:
  app:
    clients: 5000
    arrivals: { kind: constant, rate: ${rate} } # what the team believes
    retry: { maxAttempts: 3, timeout: 1s }
server:
  slots: 2
  queue: 30
  serviceTime: { kind: exponential, mean: ${mean} }
faults:
  - { kind: capacity-cut, at: 1m, duration: 30s, slots: 0 }
`;

const CALIBRATE = `observed:
  requests: { file: incident.csv, format: csv, columns: { value: attempts }, series: attempts, unit: per-second }
  p50: { file: incident.csv, format: csv, columns: { value: p50 }, series: latency_p50_ms, unit: ms }
calibrate:
  parameters:
    clients.app.arrivals.rate: { from: 4/s, to: 20/s }
    server.serviceTime.mean: { from: 50ms, to: 300ms }
  seeds: 1
  budget: 30
  intervalSeeds: 8
`;

const dir = mkdtempSync(join(tmpdir(), 'rs-calibrate-cli-'));

beforeAll(() => {
  ensureBuilt();
  // The incident: the world at 10/s and 100 ms, seed 99.
  const truth = loadScenario(WORLD('10/s', '100ms'), join(dir, 'truth.yaml'));
  const r = runOne(truth.base, 'base', 0, 99);
  const rows = ['time,attempts,p50'];
  r.columns.attempts.forEach((a, i) => rows.push(`${i * r.bucketS},${a / r.bucketS},${r.columns.latency_p50_ms[i]}`));
  writeFileSync(join(dir, 'incident.csv'), `${rows.join('\n')}\n`);
  writeFileSync(join(dir, 'team.yaml'), WORLD('14/s', '160ms') + CALIBRATE);
  writeFileSync(join(dir, 'plain.yaml'), WORLD('14/s', '160ms'));
}, 120_000);

describe('retrystorm calibrate', () => {
  it('fits the parameters, writes its account and the fitted scenario, the same bytes for 1 or 2 workers', async () => {
    const one = await runCliProcess(dir, ['calibrate', 'team.yaml', '--out', 'fit-1', '--workers', '1']);
    expect(one.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(one.code).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'fit-1', 'calibration.json'), 'utf8'));
    expect(result.format).toBe('retrystorm-calibration/1');
    expect(result.partial).toBe(false);
    expect(result.trials).toBe(30);
    const [rate, mean] = result.parameters;
    // From 14/s and 160 ms, toward the world that had the incident (10/s, 100 ms).
    expect(Math.abs(rate.value - 10)).toBeLessThan(Math.abs(14 - 10) / 2);
    expect(Math.abs(mean.value - 0.1)).toBeLessThan(Math.abs(0.16 - 0.1) / 2);
    for (const p of result.parameters) expect(p.interval.low).toBeLessThanOrEqual(p.value), expect(p.interval.high).toBeGreaterThanOrEqual(p.value);
    expect(result.loss.fitted).toBeLessThan(result.loss.start);
    expect(readFileSync(join(dir, 'fit-1', 'calibration.md'), 'utf8')).toMatch(/\| clients\.app\.arrivals\.rate \| 14\/s \| \*\*/);
    // The fitted scenario beside the original, with the fitted values and nothing else changed.
    const fitted = loadScenarioFile(join(dir, 'team.fitted.yaml'));
    expect(fitted.base.clients.app.arrivals).toMatchObject({ rate: rate.value });
    expect((fitted.base.server.serviceTime as { mean: number }).mean).toBeCloseTo(mean.value, 9);
    expect(readFileSync(join(dir, 'team.fitted.yaml'), 'utf8')).toMatch(/arrivals: \{ kind: constant, rate: [\d.]+\/s \} # rate: fitted \(95%: .*\), was 14\/s; what the team believes\n/);
    const two = await runCliProcess(dir, ['calibrate', 'team.yaml', '--out', 'fit-2', '--workers', '2', '--fitted', 'team.fitted-2.yaml']);
    expect(two.code).toBe(0);
    const sameButFitted = (f: string) => readFileSync(f, 'utf8').replace(/team\.fitted(-2)?\.yaml/g, 'F');
    expect(sameButFitted(join(dir, 'fit-2', 'calibration.json'))).toBe(sameButFitted(join(dir, 'fit-1', 'calibration.json')));
    expect(readFileSync(join(dir, 'team.fitted-2.yaml'), 'utf8')).toBe(readFileSync(join(dir, 'team.fitted.yaml'), 'utf8'));
  }, 300_000);

  it('stopped by Ctrl-C after its first trial, writes the best values so far, marked partial, without intervals, and exits 130', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'calibrate', 'team.yaml', '--out', 'fit-stopped', '--budget', '500', '--fitted', 'team.stopped.yaml', '--workers', '1'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const done = new Promise<number | null>((r) => child.on('close', r));
    await new Promise<void>((ready) => child.stderr.on('data', (d) => { stderr += d; if (/trial 1\/500/.test(stderr)) ready(); }));
    child.kill('SIGINT');
    expect(await done).toBe(130);
    expect(stderr).toMatch(/stopping \(SIGINT\): the best values so far are written, marked partial/);
    const result = JSON.parse(readFileSync(join(dir, 'fit-stopped', 'calibration.json'), 'utf8'));
    expect(result.partial).toBe(true);
    expect(result.trials).toBeGreaterThanOrEqual(1);
    expect(result.trials).toBeLessThan(500);
    for (const p of result.parameters) expect(p.interval).toBeNull();
    expect(readFileSync(join(dir, 'team.stopped.yaml'), 'utf8')).toMatch(/^# Fitted by retrystorm calibrate: .*\(PARTIAL: stopped early\)/);
  }, 120_000);

  it('says what is missing, with exit 2 and nothing written, when the scenario has no calibrate block', async () => {
    const r = await runCliProcess(dir, ['calibrate', 'plain.yaml', '--out', 'fit-plain']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plain\.yaml has no calibrate: block: name the parameters to fit/);
    expect(existsSync(join(dir, 'fit-plain'))).toBe(false);
    expect(existsSync(join(dir, 'plain.fitted.yaml'))).toBe(false);
  });

  it('refuses a fitted scenario outside the scenario\'s folder, before any run', async () => {
    const r = await runCliProcess(dir, ['calibrate', 'team.yaml', '--out', 'fit-x', '--fitted', '/tmp/elsewhere.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fitted \/tmp\/elsewhere\.yaml must be in the scenario's folder/);
  });
});
