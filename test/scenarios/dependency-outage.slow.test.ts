// The shipped story 000 scenario: a 12-minute outage outlasted by the retry storm it
// causes, while the same world without retries recovers within a minute or two.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import { loadScenario } from '../../src/scenario/load.js';
import { readFileSync } from 'node:fs';
import { expectNoRetriesRecovers, expectShortQueueRecovers } from './dependency-outage-recovering.js';

const loaded = loadScenarioFile('scenarios/dependency-outage.yaml');
const variant = (name: string) => {
  const v = loaded.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return v.scenario;
};
const OUTAGE_S = 12 * 60;

let retries: RunResult | undefined;
const runRetries = () => (retries ??= runOne(variant('retries'), 'retries', 0, 1));

describe('scenarios/dependency-outage.yaml', () => {
  it('runOne(retries): the storm outlasts the outage many times over (no recovery before the 3h horizon)', () => {
    const r = runRetries().summary.measures;
    // Either never recovered, or recovered only after at least 5x the outage.
    if (r.recoveryTimeS !== null) expect(r.recoveryTimeS).toBeGreaterThan(5 * OUTAGE_S);
    expect(r.recovered).toBe(0);
    // Users see far more than the outage: from 20m to the 3h horizon.
    expect(r.perceivedOutageS).toBeGreaterThan(2 * 3600);
    // During the outage every attempt fails fast and is retried: about 4x the offered load.
    expect(r.peakLoadMultiple).toBeGreaterThan(3.5);
    expect(r.peakLoadMultiple).toBeLessThan(4.5);
    expect(r.peakRetryShare).toBeGreaterThan(0.7);
    // Most work done after the outage serves attempts whose clients have gone.
    expect(r.wastedWorkShare).toBeGreaterThan(0.5);
    expect(r.attemptsPerActionMax).toBe(4);
  });

  it('runOne(no-retries): recovers within two minutes of the outage ending', () => {
    expectNoRetriesRecovers(runOne(variant('no-retries'), 'no-retries', 0, 1).summary.measures, OUTAGE_S);
  });

  it('runOne(short-queue): a 200-attempt queue alone lets the retrying clients recover', () => {
    expectShortQueueRecovers(runOne(variant('short-queue'), 'short-queue', 0, 1).summary.measures);
  });

  it('cut at 1 h, it is exactly the first hour of the full run (what dependency-outage-first-hour.slow.test.ts relies on)', () => {
    const text = readFileSync('scenarios/dependency-outage.yaml', 'utf8').replace(/^horizon: 3h$/m, 'horizon: 1h');
    const firstHour = loadScenario(text, 'scenarios/dependency-outage.yaml').variants.find((v) => v.name === 'retries')!.scenario;
    const start = runOne(firstHour, 'retries', 0, 1).columns;
    const full = runRetries().columns;
    const n = start.attempts.length - 1;
    expect(n).toBe(359); // 10-second buckets
    for (const column of ['attempts', 'retries', 'attempts_ok', 'queue_len', 'busy_slots', 'actions_ok', 'actions_failed'] as const) {
      expect(start[column].slice(0, n), column).toEqual(full[column].slice(0, n));
    }
  });
});
