// The shipped offline-sync scenario's at-once variant over its full hour
// (offline-sync-first-40m.slow.test.ts checks its first 40 minutes): no recovery in the 30
// minutes after the reconnect, and the first 40 minutes are exactly the start of this run.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { FILE, cutAt, expectAtOnceStorm, run } from './offline-sync-fixture.js';

describe('scenarios/offline-sync.yaml, the full hour', () => {
  it('runOne(at-once): the server never recovers in the 30 minutes after the reconnect; the 40-minute cut is the start of it', () => {
    const full = run(loadScenarioFile(FILE), 'at-once');
    expectAtOnceStorm(full);
    const start = run(cutAt('40m'), 'at-once').columns;
    const n = start.attempts.length - 1;
    expect(n).toBe(239); // 10-second buckets
    for (const column of ['attempts', 'retries', 'attempts_ok', 'queue_len', 'busy_slots', 'actions_ok', 'actions_failed'] as const) {
      expect(start[column].slice(0, n), column).toEqual(full.columns[column].slice(0, n));
    }
  });
});
