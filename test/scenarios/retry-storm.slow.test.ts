// The flagship, story 000: as deployed, a 12-minute dependency outage becomes a storm of about
// 3 hours: waves of retries, a load around the story's 9x, almost all of it retries, most of
// the server's work wasted on callers that have given up, until enough people have given up
// on the app for the load to fall below what the service can serve; nobody acts. Short
// outages pass; past a few minutes the outage lasts hours: a cliff, not a slope.
import { describe, it, expect } from 'vitest';
import { flagship, flagshipUntil, run, runResult, OUTAGE, SEEDS, MINUTE } from './retry-storm-fixture.js';

/** What users of story 000 saw: 14:00 to 17:10. */
const STORY_OUTAGE_S = (3 * 60 + 10) * MINUTE;

describe('scenarios/retry-storm.yaml', () => {
  it('compares the as-is world with each of the story\'s defences, all of them and the story\'s response acted on early, over outages of 1 to 30 minutes', () => {
    expect(flagship.variants.map((v) => v.name)).toEqual([
      'as-is', 'spread-retry-after', 'admission-reserve', 'client-ceiling', 'spread-sync-flush', 'remote-switch', 'one-layer', 'all-defences',
      'act-at-30m',
    ]);
    expect(flagship.points.map((p) => p.values[OUTAGE])).toEqual(['1m', '2m', '4m', '6m', '8m', '12m', '20m', '30m']);
    expect(flagship.base.seeds).toBe('auto');
    expect(flagship.base.compare).toEqual({ baseline: 'as-is', at: { [OUTAGE]: '12m' } });
  });

  describe.each(SEEDS)('as-is after the story\'s 12-minute outage, seed %i', (seed) => {
    const s = run('as-is', '12m', seed);

    it('comes back by itself after the story\'s 3 h 10 min, give or take 15 minutes, with no action taken: people gave up', () => {
      const r = runResult('as-is', '12m', seed);
      expect(r.actions).toEqual([]);
      expect(s.recovered).toBe(1);
      expect(Math.abs(s.perceivedOutageS! - STORY_OUTAGE_S)).toBeLessThanOrEqual(15 * MINUTE);
      // What ended it: about 40,000 departures, and about 120,000 actions (a sixth of the
      // afternoon's demand) that people who had left did not make.
      expect(s.peopleLeft).toBeGreaterThan(30_000);
      expect(s.actionsStayedAway).toBeGreaterThan(100_000);
      expect(s.successRatio!).toBeLessThan(0.7);
    });

    it('decays from its peak over the afternoon: the load at least halves between the peak and the horizon', () => {
      const load = runResult('as-is', '12m', seed).columns.load_multiple;
      const peak = Math.max(...load);
      const peakAt = load.indexOf(peak);
      // The peak is the returning wave, in the outage's last minute or just after it (20 to 32 minutes in).
      expect(peakAt).toBeGreaterThanOrEqual(31);
      expect(peakAt).toBeLessThanOrEqual(35);
      // Hour by hour the storm's mean load falls, and the last 10 minutes are back near 1x
      // (below it: some people have not come back yet).
      const hour = (h: number) => load.slice(h * 60, (h + 1) * 60).reduce((a, b) => a + b, 0) / 60;
      expect(hour(1)).toBeGreaterThan(hour(2));
      const last = load.slice(-10).reduce((a, b) => a + b, 0) / 10;
      expect(last).toBeLessThanOrEqual(peak / 2);
      expect(last).toBeGreaterThan(0.6);
      expect(last).toBeLessThan(1.1);
    });

    it('is hit again and again by waves of the sync queue\'s synchronised retries', () => {
      expect(s.retryWaves).toBeGreaterThanOrEqual(3);
      // The story's service came up between its waves; this one comes up once, for good.
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

    it.each(['8m', '20m', '30m'])('after a %s outage it comes back only after hours, when people have given up', (outage) => {
      const s = run('as-is', outage);
      expect(s.recoveryTimeS!).toBeGreaterThan(2.5 * 60 * MINUTE);
      expect(s.retryWaves).toBeGreaterThanOrEqual(2);
    });
  });
});
