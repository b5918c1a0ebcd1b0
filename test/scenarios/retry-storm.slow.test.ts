// The flagship, story 000: as deployed, a 12-minute dependency outage becomes a storm the
// service does not come back from: waves of retries, a load around the story's 9x, almost
// all of it retries, most of the server's work wasted on callers that have given up. Short
// outages pass; past a few minutes the service does not recover: a cliff, not a slope.
import { describe, it, expect } from 'vitest';
import { flagship, flagshipUntil, run, runResult, OUTAGE, SEEDS, MINUTE } from './retry-storm-fixture.js';

describe('scenarios/retry-storm.yaml', () => {
  it('compares the as-is world with each of the story\'s defences, all of them and the story\'s own response, over outages of 1 to 30 minutes', () => {
    expect(flagship.variants.map((v) => v.name)).toEqual([
      'as-is', 'spread-retry-after', 'admission-reserve', 'client-ceiling', 'spread-sync-flush', 'remote-switch', 'one-layer', 'all-defences',
      'story-response', 'act-at-30m',
    ]);
    expect(flagship.points.map((p) => p.values[OUTAGE])).toEqual(['1m', '2m', '4m', '6m', '8m', '12m', '20m', '30m']);
    expect(flagship.base.seeds).toBe('auto');
    expect(flagship.base.compare).toEqual({ baseline: 'as-is', at: { [OUTAGE]: '12m' } });
  });

  describe.each(SEEDS)('as-is after the story\'s 12-minute outage, seed %i', (seed) => {
    const s = run('as-is', '12m', seed);

    it('never recovers before the 4 h horizon: the outage outlasts itself by far more than 10x', () => {
      expect(s.recovered).toBe(0);
      expect(s.recoveryTimeS).toBeNull();
      // Users see the service down from the outage's start to the horizon: 3 h 40 min.
      expect(s.perceivedOutageS).toBeGreaterThanOrEqual(10 * 12 * MINUTE);
      expect(s.successRatio!).toBeLessThan(0.6);
    });

    it('is hit again and again by waves of the sync queue\'s synchronised retries', () => {
      expect(s.retryWaves).toBeGreaterThanOrEqual(3);
      // The story's service came up between its waves; this one never does, so the waves are
      // counted on the load: relapses (up again, then down) has nothing to count.
      expect(s.relapses).toBe(0);
    });

    it('peaks near the story\'s 9x with at least 80% retries at the peak, and 90 calls for one action', () => {
      expect(s.peakLoadMultiple).toBeGreaterThanOrEqual(6);
      expect(s.peakLoadMultiple).toBeLessThan(13);
      expect(s.retryShareAtPeak!).toBeGreaterThanOrEqual(0.8);
      expect(s.attemptsPerActionMax).toBe(90); // queue 5 x app 3 x HTTP 3 x proxy 2
    });

    it('spends most of the server\'s work on requests whose caller has stopped waiting', () => {
      expect(s.wastedWorkShare).toBeGreaterThan(0.5);
      expect(s.originalSuccessAfterFault!).toBeLessThan(0.5);
    });
  });

  it('a shorter horizon is exactly the start of the full run (what retry-storm.test.ts relies on)', () => {
    for (const [variant, outage] of [['as-is', '12m'], ['all-defences', '12m']]) {
      const full = runResult(variant, outage, 1).columns;
      const start = runResult(variant, outage, 1, flagshipUntil('1h30m')).columns;
      const n = start.attempts.length - 1; // the last minute of the short run is cut at its horizon
      expect(n).toBe(89);
      for (const column of ['attempts', 'retries', 'attempts_ok', 'queue_len', 'busy_slots', 'actions_ok', 'actions_failed'] as const) {
        expect(start[column].slice(0, n), `${variant} ${column}`).toEqual(full[column].slice(0, n));
      }
    }
  });

  describe('the as-is recovery-time curve: a cliff', () => {
    it.each(['1m', '2m', '4m'])('after a %s outage the service is back within 5 minutes', (outage) => {
      const s = run('as-is', outage);
      expect(s.recovered).toBe(1);
      expect(s.recoveryTimeS!).toBeLessThanOrEqual(5 * MINUTE);
      expect(s.retryWaves).toBe(0);
    });

    it.each(['8m', '20m', '30m'])('after a %s outage it does not come back before the horizon', (outage) => {
      const s = run('as-is', outage);
      expect(s.recovered).toBe(0);
      expect(s.retryWaves).toBeGreaterThanOrEqual(2);
    });
  });
});
