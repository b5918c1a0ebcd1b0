// The shipped AWS SDK upgrade scenario at its middle sweep point (the cut after 4 healthy
// hours), the horizon cut to 4h30m to keep the test short: before 3.1026.0 the SDK clients keep
// retrying at 3x through the collapse until the tokens they banked in 4 hours are spent
// (4 h / 20 = 12 minutes after the cut began); from 3.1026.0 the service is back within a
// bucket or two of the cut's end.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const loaded = loadScenarioFile('scenarios/aws-sdk-upgrade.yaml');
const summaryOf = (name: string) => {
  const v = loaded.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  const [cut] = v.scenario.faults;
  return runOne({ ...v.scenario, horizon: 4.5 * 3600, faults: [{ ...cut, at: 4 * 3600 }] }, name, 0, 1).summary.measures;
};

describe('scenarios/aws-sdk-upgrade.yaml (cut after 4 healthy hours)', () => {
  it('sdk-3-1025 (quota refilled with Math.max): down about 7 more minutes after the cut, at 3x the load', () => {
    const r = summaryOf('sdk-3-1025');
    expect(r.recovered).toBe(1);
    expect(r.recoveryTimeS!).toBeGreaterThan(5 * 60);
    expect(r.recoveryTimeS!).toBeLessThan(10 * 60);
    expect(r.peakLoadMultiple).toBeGreaterThan(2.8);
    expect(r.attemptsPerActionMax).toBe(3);
  });

  it('sdk-3-1026 and the current release: back within a minute of the cut, the load barely above 1x', () => {
    for (const name of ['sdk-3-1026', 'sdk-current']) {
      const r = summaryOf(name);
      expect(r.recovered, name).toBe(1);
      expect(r.recoveryTimeS!, name).toBeLessThanOrEqual(60);
      expect(r.peakLoadMultiple, name).toBeLessThan(1.5);
    }
  });
});
