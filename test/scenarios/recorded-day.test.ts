// The shipped recorded-day story (scenarios/recorded-day.yaml): a day of recorded requests per
// minute replayed from the CSV beside it, and the service time read from the latency histogram
// beside it. The files are what scripts/make-recorded-day.mjs writes, the CSV read once into
// one rate per minute; a run replays 10:00-14:00 and keeps each minute's
// count in expectation; the push at 12:30 outlasts itself with the app's retries and not
// without them (checked on 1h30m around the push, to stay fast; test/cli/trace-run.test.ts runs
// the whole file through the command line).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';
import { simulate } from '../../src/model/simulate.js';
import { distributionMean } from '../../src/engine/distributions.js';
import { toDistributionSpec } from '../../src/scenario/distribution-spec.js';

const FILE = 'scenarios/recorded-day.yaml';
const rows = readFileSync('scenarios/recorded-day.csv', 'utf8').split('\n').filter((l) => /^\d{4}-/.test(l));
const counts = rows.map((l) => Number(l.split(',')[1]));

describe('scenarios/recorded-day.yaml', () => {
  const loaded = loadScenarioFile(FILE);
  const a = loaded.base.clients.app.arrivals;

  it('reads the CSV as 1,440 minutes, each its recorded count over 60 s', () => {
    expect(a.kind).toBe('trace');
    if (a.kind !== 'trace' || !a.data) throw new Error('not a trace');
    expect(a.data.values.length).toBe(1440);
    expect(a.data.step).toBe(60);
    expect(Array.from(a.data.values, (r) => Math.round(r * 60))).toEqual(counts);
  });

  it('the data files are what scripts/make-recorded-day.mjs writes', () => {
    const files = ['scenarios/recorded-day.csv', 'scenarios/recorded-day-latency.json'];
    const before = files.map((f) => readFileSync(f, 'utf8'));
    execFileSync(process.execPath, ['scripts/make-recorded-day.mjs']);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
  });

  it('reads the service time from the latency histogram of 10:00-14:00: one observation per recorded request, mean 200 ms', () => {
    const st = loaded.base.server.serviceTime;
    if (st.kind !== 'empirical' || !st.data) throw new Error('not a service time read from a file');
    // The counters' increase from 10:00 to 14:00 is the requests recorded in those hours.
    expect(st.data.observations).toBe(counts.slice(600, 840).reduce((x, y) => x + y, 0));
    // Prometheus' default bounds, from 0, up to the last bucket that holds anything.
    expect(Array.from(st.data.values)).toEqual([0, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    expect(distributionMean(toDistributionSpec(st))).toBeCloseTo(0.2, 2);
  });

  it('a run replays 10:00 to 14:00: the actions started are the recorded ones, within Poisson noise', () => {
    const r = simulate(loaded.variants.find((v) => v.name === 'no-retries')!.scenario, 1);
    const started = r.series.actionsStarted.reduce((x, y) => x + y, 0);
    const recorded = counts.slice(600, 840).reduce((x, y) => x + y, 0);
    expect(Math.abs(started - recorded)).toBeLessThan(4 * Math.sqrt(recorded));
  });

  it('the push outlasts itself with the app\'s retries, and not with one try per action', () => {
    // 12:00 to 13:30 of the day: the push 30 minutes in.
    const text = readFileSync(FILE, 'utf8')
      .replace('window: { from: 10h, to: 14h }', 'window: { from: 12h, to: 13h30m }')
      .replace(/^horizon: 4h$/m, 'horizon: 1h30m')
      .replace('at: 2h30m', 'at: 30m');
    const short = loadScenario(text, FILE);
    const of = (name: string) => runOne(short.variants.find((v) => v.name === name)!.scenario, name, 0, 1).summary.measures;
    const asIs = of('as-is');
    const none = of('no-retries');
    expect(asIs.recovered).toBe(0);
    expect(asIs.peakLoadMultiple).toBeGreaterThan(6);
    expect(none.recovered).toBe(1);
    expect(none.recoveryTimeS).toBeLessThan(20 * 60);
  });
});
