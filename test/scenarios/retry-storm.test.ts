// The flagship scenario (story 000 whole): four retry layers turn a 12-minute outage into
// a storm that outlasts the horizon; the story's client ceiling, its server defences, or
// both bring the service back within minutes.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const loaded = loadScenarioFile('scenarios/retry-storm.yaml');
const TWELVE_MINUTES = loaded.points.findIndex((p) => p.values['faults[0].duration'] === '12m');
const run = (name: string) => runOne(loaded.variants.find((v) => v.name === name)!.points[TWELVE_MINUTES], name, TWELVE_MINUTES, 1).summary;

describe('scenarios/retry-storm.yaml at a 12-minute outage', () => {
  it('expands 4 variants x 2 outage durations x 2 seeds', () => {
    expect(loaded.variants.map((v) => v.name)).toEqual(['as-is', 'client-ceiling', 'reserve-and-spread', 'both']);
    expect(loaded.points.map((p) => p.values['faults[0].duration'])).toEqual(['3m', '12m']);
    expect(loaded.base.seeds).toBe(2);
  });

  it('runOne(as-is): 90 calls per action, the story\'s 9x load and 85% retries exceeded, no recovery', () => {
    const s = run('as-is');
    expect(s.attemptsPerAction.max).toBe(90);
    expect(s.peakLoadMultiple).toBeGreaterThan(9);
    expect(s.peakRetryShare).toBeGreaterThan(0.85);
    expect(s.recovered).toBe(false);
    expect(s.recoveryTimeS).toBeNull();
    // Users see the outage from 20m to the 2h horizon, not 12 minutes.
    expect(s.perceivedOutageS).toBeGreaterThan(90 * 60);
    expect(s.wastedWorkShare).toBeGreaterThan(0.5);
  });

  it('runOne(client-ceiling): the story\'s client alone recovers within two minutes', () => {
    const s = run('client-ceiling');
    expect(s.recovered).toBe(true);
    expect(s.recoveryTimeS!).toBeLessThanOrEqual(120);
    expect(s.attemptsPerAction.max).toBe(4);
  });

  it('runOne(reserve-and-spread): the story\'s server defences recover even with the as-is clients', () => {
    const s = run('reserve-and-spread');
    expect(s.recovered).toBe(true);
    expect(s.recoveryTimeS!).toBeLessThanOrEqual(5 * 60);
    // The server sees most retries for what they are.
    expect(s.detectedRetryShare).toBeGreaterThan(0.8 * s.retryShare);
  });

  it('runOne(both): client ceiling and server defences keep the peak load under 2x and recover at once', () => {
    const s = run('both');
    expect(s.recovered).toBe(true);
    expect(s.recoveryTimeS!).toBeLessThanOrEqual(60);
    expect(s.peakLoadMultiple).toBeLessThan(2);
  });
});
