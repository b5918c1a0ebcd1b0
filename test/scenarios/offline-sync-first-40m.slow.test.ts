// The shipped offline-sync scenario (story 000): devices reconnecting at once knock the
// server into a storm it does not leave; a flush spread per device does not.
//
// at-once runs on the first 40 minutes of the shipped hour (exactly the start of the full run):
// the reconnect is at 30 minutes, and 10 minutes after it hold the burst (484x the load), the
// storm and no recovery; most of its cost is the storm, so 40 minutes cost about 0.6 of the
// hour. The full hour (no recovery in the 30 minutes after the reconnect) is checked in
// offline-sync.slow.test.ts, with the claim that the cut is exactly the start of it. spread
// keeps the hour: its backlog takes about 26 minutes to drain before the service counts as
// recovered.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { FILE, cutAt, expectAtOnceStorm, run } from './offline-sync-fixture.js';

describe('scenarios/offline-sync.yaml', () => {
  it('runOne(at-once), first 40 minutes: the reconnect burst is hundreds of times the load and the server does not recover', () => {
    const first40m = cutAt('40m');
    expect(first40m.base.horizon).toBe(40 * 60);
    expectAtOnceStorm(run(first40m, 'at-once'));
  });

  it('runOne(spread): the same queues flushed over per-device windows stay under the server capacity', () => {
    const s = run(loadScenarioFile(FILE), 'spread').summary.measures;
    expect(s.peakLoadMultiple).toBeLessThan(2.5);
    expect(s.successRatio!).toBeGreaterThan(0.99);
    expect(s.attemptsPerActionMax).toBe(1);
    // The backlog drains, and the service counts as recovered once the load is back to normal.
    expect(s.recovered).toBe(1);
  });
});
