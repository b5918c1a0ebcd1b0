/**
 * Checks every measure on hand-built RunRecords whose answers can be worked out on paper.
 * Most records share one shape: 10 s buckets, warm-up 60 s, a fault over [200, 300), and
 * steady traffic of 100 arrivals, 100 attempts and 99 ok / 1 failed per bucket (10 actions/s,
 * pre-fault success ratio 0.99, pre-fault load 1x). Recovery, which reads the verdict's
 * per-second series, has its own records built second by second.
 */
import { describe, expect, it } from 'vitest';
import type { FaultWindow, RunRecord } from '../../src/model/series.js';
import { DEFAULT_MEASURE_SETTINGS, type MeasureSettings } from '../../src/measures/settings.js';
import { RunView } from '../../src/measures/view.js';
import { DEFAULT_TIE, defineMeasure, tieLimit, tieTolerance, type MeasureDescriptor } from '../../src/measures/measure.js';
import { TIER_MEASURES } from '../../src/measures/tiers.js';
import { MEASURES } from '../../src/measures/registry.js';
import { summarize } from '../../src/measures/summarize.js';
import { perceivedOutageS, relapses } from '../../src/measures/outage.js';
import { retryWaves, WAVE_RISE } from '../../src/measures/waves.js';
import { excessAttempts, peakLoadMultiple, peakRetryShare, retryShareAtPeak } from '../../src/measures/load.js';
import { attemptsPerActionStats } from '../../src/measures/amplification.js';
import { originalSuccessAfterFault, successRatio } from '../../src/measures/users.js';
import { makeRecord as build, set, setSeconds, type Bucket } from './record-builder.js';

const S: MeasureSettings = { ...DEFAULT_MEASURE_SETTINGS };
const FAULT: FaultWindow = { kind: 'dependency-outage', startS: 200, endS: 300 };

const makeRecord = (horizonS: number, faults: FaultWindow[] = [FAULT], bucketS = 10) => build(horizonS, faults, bucketS);
const view = (r: RunRecord, over: Partial<MeasureSettings> = {}) => RunView.subject(r, { ...S, ...over });
/** One measure of a record, for the verdict's users. */
const m = (d: MeasureDescriptor, r: RunRecord, over: Partial<MeasureSettings> = {}) => d.compute(view(r, over));

const STEADY: Bucket = { started: 100, attempts: 100, retries: 0, ok: 99, failed: 1 };
/** Down, and clients hammer it at 4x. */
const DOWN: Bucket = { started: 100, attempts: 400, retries: 300, ok: 0, failed: 100 };

/** Steady before the fault, down during it and until bucket `recoverAt`, steady after. */
function stormRecord(recoverAt: number, horizonS = 1000): RunRecord {
  const r = makeRecord(horizonS);
  const n = r.series.n;
  set(r, 0, 20, STEADY);
  set(r, 20, recoverAt, DOWN);
  set(r, recoverAt, n, STEADY);
  return r;
}

describe('the view: real bucket widths and ratios', () => {
  it('divides by the real width of a short last bucket and marks meaningless ratios NaN', () => {
    const r = makeRecord(25, [], 10); // buckets [0,10) [10,20) [20,25)
    set(r, 0, 1, { started: 50, attempts: 100, retries: 30, ok: 40, failed: 10 });
    set(r, 1, 2, { attempts: 10, retries: 10, ok: 0, failed: 0 });
    set(r, 2, 3, { attempts: 50, retries: 0, ok: 20, failed: 0 });
    const v = view(r, { baselineRate: 5 });
    expect(Array.from(v.widths)).toEqual([10, 10, 5]);
    expect(Array.from(v.loadMultiple)).toEqual([2, 0.2, 2]); // 10/s, 1/s, 10/s over 5/s
    expect(v.successRatio[0]).toBeCloseTo(0.8, 12);
    expect(v.successRatio[1]).toBeNaN();
    expect(v.successRatio[2]).toBe(1);
  });
});

describe('baseline', () => {
  it('measures the pre-fault window after warm-up, pooling ratios over buckets', () => {
    const r = makeRecord(1000, [{ kind: 'x', startS: 195, endS: 300 }]);
    set(r, 0, 6, { started: 500, attempts: 900, ok: 0, failed: 500 }); // warm-up: excluded
    set(r, 6, 19, { started: 100, attempts: 150, ok: 100, failed: 0 });
    set(r, 6, 7, { ok: 90, failed: 10 }); // pooled, not mean of per-bucket ratios
    set(r, 19, 20, { started: 900, attempts: 900, ok: 0, failed: 900 }); // [190,200) straddles 195: excluded
    const b = view(r).baseline;
    expect(b.declared).toBe(false);
    expect([b.fromS, b.toS]).toEqual([60, 190]);
    expect(b.rate).toBe(10); // 1300 actions / 130 s
    expect(b.successRatio).toBeCloseTo(1290 / 1300, 12);
    expect(b.loadMultiple).toBeCloseTo(1.5, 12);
  });

  it('uses the declared rate but the same window for the pre-fault ratios', () => {
    const b = view(stormRecord(30), { baselineRate: 20 }).baseline;
    expect(b).toMatchObject({ rate: 20, declared: true, fromS: 60, toS: 200 });
    expect(b.loadMultiple).toBeCloseTo(0.5, 12); // 10 attempts/s against a declared 20/s
    expect(b.successRatio).toBeCloseTo(0.99, 12);
  });

  it('falls back to [0, fault start) when no whole bucket fits between warm-up and the fault', () => {
    const r = makeRecord(1000, [{ kind: 'x', startS: 65, endS: 300 }]);
    set(r, 0, 6, { started: 30, attempts: 30, ok: 30 });
    set(r, 6, 100, { started: 1000, attempts: 1000, ok: 0, failed: 1000 });
    const b = view(r).baseline;
    expect([b.fromS, b.toS]).toEqual([0, 60]);
    expect(b.rate).toBe(3);
    expect(b.successRatio).toBe(1);
  });

  it('without faults uses the whole run after warm-up', () => {
    const r = makeRecord(100, []);
    set(r, 0, 6, { started: 1000 });
    set(r, 6, 10, { started: 40 });
    const b = view(r).baseline;
    expect([b.fromS, b.toS]).toEqual([60, 100]);
    expect(b.rate).toBe(4);
  });

  it('reads the users\' success but every population\'s arrivals and load', () => {
    const r = build(1000, [FAULT], 10, [{}, { legitimate: false }]);
    set(r, 0, 100, STEADY, 0);
    set(r, 0, 100, { started: 100, attempts: 100, ok: 0, failed: 100 }, 1); // bots, all refused
    const b = view(r).baseline;
    expect(b.rate).toBe(20);
    expect(b.successRatio).toBeCloseTo(0.99, 12);
    expect(b.loadMultiple).toBe(1);
  });
});

/** 10 actions/s, all served: the healthy state of the per-second records. */
const FINE_OK = { attempts: 10, ok: 10, failed: 0 };
/** Down: 40 attempts/s, nothing served. */
const FINE_DOWN = { attempts: 40, ok: 0, failed: 10, started: 10 };

/** Healthy until the fault at 200, down until `upAtS` (fault ends at 300), healthy after; 10 s buckets unless given. */
function fineStorm(upAtS: number, horizonS = 1000, bucketS = 10, faults: FaultWindow[] = [FAULT]): RunRecord {
  const r = build(horizonS, faults, bucketS);
  setSeconds(r, 0, 200, FINE_OK);
  setSeconds(r, 200, upAtS, FINE_DOWN);
  setSeconds(r, upAtS, horizonS, FINE_OK);
  return r;
}

describe('recovery (per second, health judged over sliding windows)', () => {
  // These records have no noise: their windows are pinned at 10 s (the default widens them
  // for 10 attempts/s; its own tests are below).
  const view = (r: RunRecord, over: Partial<MeasureSettings> = {}) => RunView.subject(r, { ...S, healthWindowS: 10, ...over });

  it('is resolved to the second, whatever the bucket width', () => {
    // Healthy from 347 s: the 10 s window [347, 357) is the first wholly healthy one.
    expect(view(fineStorm(347)).recovery).toEqual({ recovered: true, recoveryTimeS: 47, healthyFromS: 347 });
    // One-minute buckets with a 10 s health window give the same second.
    expect(view(fineStorm(347, 1200, 60), { healthWindowS: 10 }).recovery.recoveryTimeS).toBe(47);
    // A 60 s window still slides a second at a time, and judges a minute at once: [346, 406)
    // holds one down second, 590 of 600 actions served (0.983 >= 0.98) and 630 attempts
    // (1.05x): healthy.
    expect(view(fineStorm(347, 1200, 60), { healthWindowS: 60 }).recovery.recoveryTimeS).toBe(46);
  });

  it('starts counting from the end of the last trigger, not the first', () => {
    const r = fineStorm(450);
    r.faults = [FAULT, { kind: 'surge', startS: 250, endS: 420 }];
    expect(view(r).recovery.recoveryTimeS).toBe(30);
  });

  it('treats the limits as inclusive: 98 of 100 served at 1.2x load is healthy, 97 or 121 attempts is not', () => {
    // The pre-fault ratio is 1, so the floor is 0.98; the load ceiling 1.2 x 10/s = 120 per 10 s window.
    const at = (ok: number, attempts: number) => {
      const r = fineStorm(300);
      setSeconds(r, 300, 310, { attempts: 10, ok: 10, failed: 0 });
      r.fine.actionsOk[305] = 8 - (98 - ok); // one second carries the window's failures
      r.fine.actionsEnded[305] = 10;
      r.fine.attempts[305] = 10 + (attempts - 100);
      return view(r).recovery.recoveryTimeS;
    };
    expect(at(98, 120)).toBe(0);
    expect(at(97, 100)).toBe(6); // every window holding second 305 fails; the first without it starts at 306
    expect(at(98, 121)).toBe(6);
  });

  it('skips a healthy stretch shorter than the hold and reports the later one', () => {
    const r = fineStorm(300);
    setSeconds(r, 360, 365, FINE_DOWN); // healthy 300..360 (60 s < 120 s), down, healthy from 365
    expect(view(r).recovery).toMatchObject({ recovered: true, recoveryTimeS: 65, healthyFromS: 365 });
  });

  it('does not count a healthy stretch at the end shorter than the hold', () => {
    expect(view(fineStorm(881)).recovery).toEqual({ recovered: false, recoveryTimeS: null, healthyFromS: null }); // [881, 1000): 119 s
    expect(view(fineStorm(880)).recovery.recoveryTimeS).toBe(580); // [880, 1000) is exactly 120 s
  });

  it('is 0 and recovered when there are no triggers', () => {
    const r = fineStorm(900, 1000, 10, []);
    expect(view(r).recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 0 });
  });

  it('does not treat a window in which no action ended as healthy', () => {
    const r = fineStorm(300);
    setSeconds(r, 310, 330, { attempts: 10, ok: 0, failed: 0 }); // attempts flow, nothing completes for 20 s
    // The windows starting at 310..320 lie wholly in the silence; from 321 each holds a second that served.
    expect(view(r).recovery).toMatchObject({ recoveryTimeS: 21, healthyFromS: 321 });
  });

  it('asks for a perfect success ratio, less the drop, when no action ended before the fault', () => {
    const r = fineStorm(300);
    setSeconds(r, 0, 200, { attempts: 10, ok: 0, failed: 0 }); // actions in flight, none ended: no pre-fault ratio
    setSeconds(r, 300, 330, { attempts: 10, ok: 97, failed: 3 }); // 0.97 < 1 - 0.02 for 30 s
    expect(view(r).baseline.successRatio).toBeNaN();
    // [328, 338) holds two such seconds: 194 + 80 of 200 + 80 served, 0.979: not healthy;
    // [329, 339) one: 97 + 90 of 100 + 90, 0.984: healthy.
    expect(view(r).recovery.recoveryTimeS).toBe(29);
  });

  it('judges health over the bucket width by default, widened to a round window holding (5 / loadExcess)² attempts, at most the hold', () => {
    // 10 attempts/s: 625 attempts take 62.5 s, so the 10 s buckets widen to 120 s (the hold).
    const r = fineStorm(300);
    expect(RunView.subject(r, S).healthWindowS).toBe(120);
    expect(RunView.subject(r, { ...S, holdS: 60 }).healthWindowS).toBe(60);
    // A wider load allowance needs fewer: (5 / 0.5)² = 100 attempts, 10 s, the bucket itself.
    expect(RunView.subject(r, { ...S, loadExcess: 0.5 }).healthWindowS).toBe(10);
    // Ten times the traffic: 6.25 s, inside the bucket; a set window is taken as it is.
    const busy = build(1000, [FAULT], 10);
    setSeconds(busy, 0, 1000, { attempts: 100, ok: 100, failed: 0 });
    expect(RunView.subject(busy, S).healthWindowS).toBe(10);
    expect(RunView.subject(r, { ...S, healthWindowS: 5 }).healthWindowS).toBe(5);
  });

  it('does not let the ordinary ups and downs of a 1 s window veto a recovery', () => {
    // 1 s buckets at 50 attempts/s, every action served, and every seventh second 61 attempts
    // (above the 60 of 1.2x), the next one 39: the load averages 1x, as Poisson traffic does.
    const r = build(600, [{ kind: 'x', startS: 200, endS: 260 }], 1);
    setSeconds(r, 0, 600, { attempts: 50, ok: 50, failed: 0 });
    for (let t = 0; t + 1 < 600; t += 7) {
      r.fine.attempts[t] = 61;
      r.fine.attempts[t + 1] = 39;
    }
    // Judged second by second, no 60 s hold is ever free of a 61: never recovered.
    expect(RunView.subject(r, { ...S, holdS: 60, healthWindowS: 1 }).recovery.recovered).toBe(false);
    // By default the window is 15 s (625 / 50 = 12.5 s, rounded up): recovered at once.
    const v = RunView.subject(r, { ...S, holdS: 60 });
    expect(v.healthWindowS).toBe(15);
    // Never disrupted: the lasting healthy stretch runs through the trigger, from its start.
    expect(v.recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 200 });
  });

  it('recovers while a trigger that lasts to the end of the run goes on, timed from the trigger\'s start', () => {
    // Down from 200 to 300, served from 300 to the horizon while the fault is still on.
    const r = fineStorm(300);
    r.faults = [{ kind: 'x', startS: 200, endS: 1000 }];
    expect(view(r).recovery).toEqual({ recovered: true, recoveryTimeS: 100, healthyFromS: 300 });
    // A healthy stretch the run ends inside, shorter than the hold, is still not a recovery.
    const late = fineStorm(881);
    late.faults = [{ kind: 'x', startS: 200, endS: 1000 }];
    expect(view(late).recovery).toEqual({ recovered: false, recoveryTimeS: null, healthyFromS: null });
    // Never disrupted by a trigger that outlasts the run: recovered, in 0 s.
    const never = fineStorm(200);
    never.faults = [{ kind: 'x', startS: 200, endS: 5000 }];
    expect(view(never).recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 200 });
  });

  it('times a recovery under a trigger that outlasts the run from the triggers in force, or from the last to end', () => {
    // Two overlapping triggers are one span from 200: served again from 400, 200 s later.
    const r = fineStorm(400);
    r.faults = [{ kind: 'x', startS: 200, endS: 300 }, { kind: 'y', startS: 250, endS: 1000 }];
    expect(view(r).recovery).toEqual({ recovered: true, recoveryTimeS: 200, healthyFromS: 400 });
    // Served again at 350, between a fault that ended at 300 and one from 600 to the end that
    // never knocks the users down: 50 s after the first ended.
    const gap = fineStorm(350);
    gap.faults = [{ kind: 'x', startS: 200, endS: 300 }, { kind: 'y', startS: 600, endS: 1000 }];
    expect(view(gap).recovery).toEqual({ recovered: true, recoveryTimeS: 50, healthyFromS: 350 });
  });

  it('counts users restored during a fault that ends in the run as recovered from then, in 0 s, if it lasts through the end and the hold after', () => {
    // The fault is [200, 300); users are served again from 250.
    expect(view(fineStorm(250)).recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 250 });
    // Knocked down again when the fault ends (a flush of queued work, 300 to 310): the
    // stretch from 250 did not last, and recovery is timed from the end as before.
    const flushed = fineStorm(250);
    setSeconds(flushed, 300, 310, FINE_DOWN);
    expect(view(flushed).recovery).toEqual({ recovered: true, recoveryTimeS: 10, healthyFromS: 310 });
    // Restored at 400 during a fault that ends at 950, 50 s before the horizon: the run
    // cannot show a hold after the fault, but the users have been served since 400, which
    // is longer than the hold, up to the horizon.
    const late = fineStorm(400);
    late.faults = [{ kind: 'x', startS: 200, endS: 950 }];
    expect(view(late).recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 400 });
  });

  it('does not hold a trigger\'s own load against the users while it is on, and does from its end', () => {
    // An attacker's flood from 200 to 600 triples the attempts; users are served throughout
    // but 200 to 300. Then the flood stops at 600 but the load stays at 3x until 700.
    const r = fineStorm(300);
    setSeconds(r, 300, 700, { attempts: 30, ok: 10, failed: 0 });
    r.faults = [{ kind: 'surge', startS: 200, endS: 600 }];
    // From 600 the load counts: the first window within 1.2x is [699, 709), 30 + 9 x 10 attempts.
    expect(view(r).recovery).toEqual({ recovered: true, recoveryTimeS: 99, healthyFromS: 699 });
    // With the flood on to the horizon, the users are recovered from 300.
    r.faults = [{ kind: 'surge', startS: 200, endS: 1000 }];
    setSeconds(r, 300, 1000, { attempts: 30, ok: 10, failed: 0 });
    expect(view(r).recovery).toEqual({ recovered: true, recoveryTimeS: 100, healthyFromS: 300 });
  });

  it('starts from the first whole second after a trigger that ends mid-second', () => {
    const r = fineStorm(296);
    r.faults = [{ kind: 'x', startS: 200, endS: 295.5 }];
    expect(view(r).recovery.recoveryTimeS).toBeCloseTo(0.5, 12); // healthy from 296
    // Served from 290, before the trigger ended: recovered then, needing no time after it.
    const before = fineStorm(290);
    before.faults = [{ kind: 'x', startS: 200, endS: 295.5 }];
    expect(view(before).recovery).toEqual({ recovered: true, recoveryTimeS: 0, healthyFromS: 290 });
  });
});

describe('healthy before the trigger', () => {
  it('is false when users were mostly failing or the server saturated before the first fault, true otherwise', () => {
    expect(view(stormRecord(30)).healthyBeforeTrigger).toBe(true);
    const failing = stormRecord(30);
    set(failing, 0, 20, { ok: 20, failed: 80 }); // 20% success before the fault
    expect(view(failing).healthyBeforeTrigger).toBe(false);
    const saturated = stormRecord(30);
    for (let i = 0; i < 20; i++) { saturated.series.busySlots[i] = 99; saturated.series.slots[i] = 100; }
    expect(view(saturated).healthyBeforeTrigger).toBe(false); // 99% busy >= 98%
    expect(view(saturated, { saturation: 1 }).healthyBeforeTrigger).toBe(true);
  });
});

describe('perceivedOutageS', () => {
  it('counts low-success buckets and silent buckets only when users were waiting', () => {
    const r = makeRecord(100, []);
    set(r, 0, 10, STEADY); // 0.99: fine
    set(r, 1, 2, { ok: 89, failed: 11 }); // 0.89 < 0.9: outage
    set(r, 2, 3, { ok: 90, failed: 10 }); // exactly 0.9: not an outage
    set(r, 3, 4, { ok: 0, failed: 0 }); // nothing ended, 100 started: outage
    set(r, 4, 5, { started: 0, ok: 0, failed: 0 }); // idle: not an outage
    set(r, 5, 6, { ok: 0, failed: 5 }); // 0: outage
    expect(m(perceivedOutageS, r)).toBe(30);
    expect(m(perceivedOutageS, r, { perceivedOutageThreshold: 0.995 })).toBe(90); // all but the idle bucket
  });
});

describe('relapses', () => {
  // The fault is [200, 300): buckets 20..29. 10 s buckets, relapseUp 60 s by default.
  it('counts falls after an up-stretch of at least relapseUp, after the fault ended', () => {
    const r = stormRecord(100, 1500); // down from bucket 20 to 99, steady after
    set(r, 30, 36, STEADY); // up for 60 s at [300, 360) ...
    set(r, 36, 40, DOWN); // ... then down: relapse 1
    set(r, 40, 45, STEADY); // up for only 50 s ...
    set(r, 45, 50, DOWN); // ... then down: too short an up-stretch to count
    set(r, 50, 60, STEADY); // up for 100 s ...
    set(r, 60, 61, DOWN); // ... one down bucket: relapse 2
    expect(m(relapses, r)).toBe(2);
    expect(m(relapses, r, { relapseUpS: 50 })).toBe(3);
    expect(m(relapses, r, { relapseUpS: 120 })).toBe(0);
  });

  it('is 0 for a service that recovered and stayed, one that never recovered, and a run without faults', () => {
    expect(m(relapses, stormRecord(40))).toBe(0);
    const never = stormRecord(1000);
    expect(m(relapses, never)).toBe(0);
    const calm = makeRecord(500, []);
    set(calm, 0, 50, STEADY);
    set(calm, 20, 22, DOWN);
    expect(m(relapses, calm)).toBe(0);
  });

  it('does not take a lull with no users in it for the service being up', () => {
    const r = stormRecord(1000, 1500); // down from the fault on, never back
    set(r, 40, 47, { started: 0, ok: 0, failed: 0 }); // 70 s in which nobody arrives or finishes
    expect(m(relapses, r)).toBe(0);
    set(r, 47, 50, STEADY); // 30 s up after the lull: still under relapseUp
    expect(m(relapses, r)).toBe(0);
    set(r, 50, 53, STEADY); // 60 s up in all (the lull not counted), then down again
    expect(m(relapses, r)).toBe(1);
  });

  it('ignores ups and downs while the fault lasts', () => {
    const r = stormRecord(30);
    set(r, 21, 28, STEADY); // up for 70 s inside the fault
    set(r, 28, 30, DOWN);
    expect(m(relapses, r)).toBe(0);
  });
});

describe('retryWaves', () => {
  // STEADY is 1x (100 attempts per 10 s bucket against a 10/s baseline); the healthy load
  // limit is 1.2x. The averaging window is 60 s: 6 buckets.
  const at = (r: RunRecord, from: number, to: number, multiple: number) => set(r, from, to, { attempts: 100 * multiple });

  it('counts surges after the first wave has ebbed, each rising 1.5x over the trough and above the healthy limit', () => {
    const r = stormRecord(30, 3000); // fault [200, 300), steady from bucket 30
    at(r, 20, 30, 4); // the storm while the fault lasts: the first wave
    at(r, 30, 40, 2); // it ebbs to 2x: 4 / 2 >= 1.5
    at(r, 40, 50, 3.5); // back up to 3.5x: wave 1
    at(r, 50, 70, 1); // down to 1x
    at(r, 70, 80, 1.3); // 1.3x: above the limit, but not 1.5x over the 1x trough... (1.3 < 1.5)
    at(r, 80, 100, 1); //
    at(r, 100, 110, 1.6); // 1.6x: 1.6 over a 1x trough, above 1.2: wave 2
    at(r, 110, 130, 1);
    at(r, 130, 140, 1.15); // 1.15x: 1.15 over 1x is not a wave, and it is under the limit anyway
    expect(m(retryWaves, r)).toBe(2);
  });

  it('does not count a storm that never ebbs, nor noise in a recovered service, nor a run without faults', () => {
    const flat = stormRecord(300, 3000);
    expect(m(retryWaves, flat)).toBe(0);
    const calm = stormRecord(30, 3000);
    for (let i = 30; i < calm.series.n; i++) set(calm, i, i + 1, { attempts: i % 2 ? 80 : 118 }); // ±20% noise around 1x
    expect(m(retryWaves, calm)).toBe(0);
    expect(m(retryWaves, makeRecord(1000, []))).toBe(0);
  });

  it('counts the first surge when the clients were quiet as the fault ended', () => {
    const r = stormRecord(20, 3000); // steady throughout: the fault [200, 300) saw 1x
    at(r, 33, 40, 5); // 30 s after the fault, a 5x wave: wave 1
    expect(m(retryWaves, r)).toBe(1);
    at(r, 60, 70, 5); // another after it ebbed: wave 2
    expect(m(retryWaves, r)).toBe(2);
  });

  it('averages over a minute, so one spiky bucket is not a wave', () => {
    const r = stormRecord(30, 3000);
    at(r, 20, 30, 4);
    at(r, 60, 61, 3); // one 10 s bucket at 3x: the minute's mean is (3 + 5) / 6 = 1.33x < 1.5x over 1x
    expect(m(retryWaves, r)).toBe(0);
    at(r, 60, 62, 3); // two buckets: (6 + 4) / 6 = 1.67x: a wave
    expect(m(retryWaves, r)).toBe(1);
    expect(WAVE_RISE).toBe(1.5);
  });
});

describe('originalSuccessAfterFault', () => {
  it('is the share of first tries sent in the hold after the fault that succeeded', () => {
    const r = makeRecord(1000); // fault ends at 300; hold 120 s: buckets 30..41
    set(r, 0, r.series.n, { firstTries: 10 });
    set(r, 30, 36, { firstTriesOk: 2 }); // 6 x 2 + 6 x 8 of 12 x 10
    set(r, 36, 42, { firstTriesOk: 8 });
    set(r, 29, 30, { firstTriesOk: 10 }); // before the fault ended: not counted
    set(r, 42, 43, { firstTriesOk: 10 }); // after the hold: not counted
    expect(m(originalSuccessAfterFault, r)).toBeCloseTo(60 / 120, 12);
    expect(m(originalSuccessAfterFault, r, { holdS: 60 })).toBeCloseTo(12 / 60, 12);
  });

  it('reads the hold to the second when the fault ends inside a bucket', () => {
    // 1-minute buckets; the fault ends at 270. Users send 10 first tries a second all along:
    // none served during the fault, 4 a second while the backlog drains [270, 300), all after.
    const r = makeRecord(1200, [{ kind: 'dependency-outage', startS: 200, endS: 270 }], 60);
    set(r, 0, r.series.n, { firstTries: 600, firstTriesOk: 600 });
    set(r, 3, 4, { firstTriesOk: 400 }); // [180, 240): 20 s before the fault, 40 s in it
    set(r, 4, 5, { firstTriesOk: 120 });
    for (let t = 200; t < 300; t++) r.fine.firstTriesOk[t] = t < 270 ? 0 : 4;
    // The hold [270, 390): 1,200 sent, 30 x 4 + 90 x 10 = 1,020 served. Whole buckets starting
    // in it, [300, 420), read 1.
    expect(m(originalSuccessAfterFault, r)).toBeCloseTo(1020 / 1200, 12);
  });

  it('is null without faults or without originals in the window', () => {
    expect(m(originalSuccessAfterFault, makeRecord(1000, []))).toBeNull();
    expect(m(originalSuccessAfterFault, makeRecord(1000))).toBeNull();
  });
});

describe('peakLoadMultiple', () => {
  it('takes the highest bucket and rates a short last bucket by its real width', () => {
    const r = stormRecord(30, 995);
    set(r, 99, 100, { attempts: 250 }); // 250 in 5 s = 50/s = 5x
    expect(m(peakLoadMultiple, r)).toBe(5);
    set(r, 99, 100, { attempts: 0 });
    expect(m(peakLoadMultiple, r)).toBe(4); // the DOWN buckets
  });

  it('leaves out a last bucket the horizon cuts to under half the bucket width: a rate over a sliver is noise', () => {
    const r = stormRecord(30, 990.5);
    set(r, 99, 100, { attempts: 25 }); // 25 in 0.5 s = 50/s = 5x, from a handful of attempts
    expect(m(peakLoadMultiple, r)).toBe(4);
    expect(m(retryShareAtPeak, r)).toBe(0.75); // the peak's bucket is a DOWN one, not the sliver
  });
});

describe('peakRetryShare', () => {
  it('ignores buckets with fewer than minAttemptsForShare attempts', () => {
    const r = makeRecord(100, []);
    set(r, 0, 1, { attempts: 5, retries: 5 }); // share 1, but only 5 attempts
    set(r, 1, 2, { attempts: 100, retries: 60 });
    set(r, 2, 3, { attempts: 20, retries: 8 });
    expect(m(peakRetryShare, r)).toBe(0.6);
    expect(m(peakRetryShare, r, { minAttemptsForShare: 5 })).toBe(1);
    expect(m(peakRetryShare, makeRecord(100, []))).toBe(0);
  });
});

describe('retryShareAtPeak', () => {
  it('reads the retry share of the bucket of peak offered load, not the highest share anywhere', () => {
    const r = stormRecord(30); // baseline 10/s; DOWN buckets 20..29 at 4x with share 0.75
    set(r, 25, 26, { attempts: 500, retries: 250 }); // 5x, the peak: share 0.5
    set(r, 40, 41, { attempts: 100, retries: 90 }); // 1x but 0.9: the highest share anywhere
    expect(m(peakLoadMultiple, r)).toBe(5);
    expect(m(peakRetryShare, r)).toBe(0.9);
    expect(m(retryShareAtPeak, r)).toBe(0.5);
  });

  it('takes the first bucket on a tie and rates a short last bucket by its real width', () => {
    const r = stormRecord(30, 995); // DOWN buckets 20..29 tie at 4x
    set(r, 20, 21, { retries: 100 }); // the first of them: 100/400
    expect(m(retryShareAtPeak, r)).toBe(0.25);
    set(r, 99, 100, { attempts: 250, retries: 200 }); // 250 in 5 s = 50/s = 5x
    expect(m(retryShareAtPeak, r)).toBe(0.8);
  });

  it('is null when the peak bucket has too few attempts, and uses attempts per second with a 0 baseline', () => {
    const tiny = makeRecord(100, []);
    set(tiny, 3, 4, { attempts: 10, retries: 5 }); // the peak, but 10 < minAttemptsForShare
    expect(m(retryShareAtPeak, tiny)).toBeNull();
    expect(m(retryShareAtPeak, tiny, { minAttemptsForShare: 10 })).toBe(0.5);
    expect(m(retryShareAtPeak, makeRecord(0, []))).toBeNull(); // no bucket at all
    const unbased = makeRecord(100, []); // nothing started: baseline rate 0
    set(unbased, 2, 3, { attempts: 40, retries: 10 });
    set(unbased, 5, 6, { attempts: 50, retries: 40 });
    expect(m(peakLoadMultiple, unbased)).toBe(0);
    expect(m(retryShareAtPeak, unbased)).toBe(0.8);
  });
});

describe('excessAttempts', () => {
  it('adds up the attempts above the healthy load limit after the last trigger', () => {
    const r = stormRecord(30, 2000); // limit 1.2x = 120 per bucket; the storm ends with the fault at 300
    set(r, 40, 41, { attempts: 500 }); // 380 over
    set(r, 60, 62, { attempts: 130 }); // 10 over, twice
    set(r, 25, 26, { attempts: 900 }); // during the fault: not counted
    expect(m(excessAttempts, r)).toBe(400);
    expect(m(excessAttempts, makeRecord(1000, []))).toBe(0);
  });

  it('counts, in the bucket where the trigger ends, only the attempts sent after its end', () => {
    // 1-minute buckets; the fault ends at 270, inside [240, 300). Clients send 40/s until
    // then and 10/s (the 1x) after it: no excess at all. A share of the bucket's 1,500
    // attempts (half: 750, against a limit of 1.2 x 10 x 30 = 360) counted the fault's storm.
    const r = fineStorm(270, 1200, 60, [{ kind: 'dependency-outage', startS: 200, endS: 270 }]);
    expect(r.series.attempts[4]).toBe(1500); // 30 s at 40 and 30 s at 10
    expect(m(excessAttempts, r)).toBe(0);
    // 20 attempts/s after the fault: 8 over the limit of 12 each second, 10 s buckets or 1 min.
    setSeconds(r, 270, 1200, { attempts: 20, ok: 10, failed: 0 });
    const tenSecond = fineStorm(270, 1200, 10, [{ kind: 'dependency-outage', startS: 200, endS: 270 }]);
    setSeconds(tenSecond, 270, 1200, { attempts: 20, ok: 10, failed: 0 });
    expect(m(excessAttempts, r)).toBeCloseTo(930 * 8, 6);
    expect(m(excessAttempts, tenSecond)).toBeCloseTo(930 * 8, 6);
  });
});

describe('attemptsPerActionStats', () => {
  it('gives mean, nearest-rank p99 and max of the histogram', () => {
    // 90 actions took 1 attempt, 5 took 2, 3 took 3, 2 took 5.
    expect(attemptsPerActionStats([0, 90, 5, 3, 0, 2])).toEqual({ mean: 1.19, p99: 5, max: 5 });
    expect(attemptsPerActionStats([0, 99, 1])).toEqual({ mean: 1.01, p99: 1, max: 2 });
    expect(attemptsPerActionStats([0, 98, 2]).p99).toBe(2);
    expect(attemptsPerActionStats([0, 297, 3]).p99).toBe(1); // cumulative count exactly at the 99% rank
  });

  it('is all zeros when no action finished', () => {
    expect(attemptsPerActionStats([])).toEqual({ mean: 0, p99: 0, max: 0 });
    expect(attemptsPerActionStats([0, 0, 0])).toEqual({ mean: 0, p99: 0, max: 0 });
  });
});

describe('users and attackers', () => {
  it('leaves attackers out of success, perceived outage and amplification, but not out of load', () => {
    const r = build(1000, [FAULT], 10, [{ name: 'users' }, { name: 'bots', legitimate: false }]);
    set(r, 0, 100, STEADY, 0);
    set(r, 20, 40, { started: 100, attempts: 300, ok: 0, failed: 100 }, 1); // bots flood and are refused
    r.attemptsPerActionByPopulation = [[0, 100], [0, 0, 0, 100]];
    const v = view(r);
    expect(successRatio.compute(v)).toBeCloseTo(0.99, 12);
    expect(perceivedOutageS.compute(v)).toBe(0);
    expect(attemptsPerActionStats(v.histogram).mean).toBe(1);
    expect(peakLoadMultiple.compute(v)).toBe(4); // (100 + 300) / 100 per bucket against the 1x before the flood
    const s = summarize(r, S);
    expect(s.populations.map((p) => [p.name, p.measures.successRatio])).toEqual([['users', 0.99], ['bots', 0]]);
    expect(s.routes[0].measures.successRatio).toBeCloseTo(0.99, 12); // the route's legitimate users
  });
});

/** Every number reachable from v is finite (JSON.stringify would silently turn NaN into null). */
function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (v && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}

describe('summarize', () => {
  it('computes every measure of the registry, plain JSON, for a storm run', () => {
    const r = fineStorm(350);
    r.attemptsPerActionByPopulation = [[0, 90, 5, 3, 0, 2]];
    Object.assign(r.totals, { attempts: 14000, served: 12000, queueWaitS: 600, workS: 800, wastedWorkS: 200, capacityS: 4000 });
    const s = summarize(r, S);
    expect(Object.keys(s.measures)).toEqual(MEASURES.keys);
    expect(s.measures).toMatchObject({
      // 10 attempts/s: the 10 s buckets widen to a 120 s health window (the hold), which
      // holds two down seconds and still serves 98%: [348, 468) is healthy.
      healthWindowS: 120,
      recovered: 1,
      recoveryTimeS: 48,
      healthyBeforeTrigger: 1,
      baselineRate: 10,
      preFaultSuccessRatio: 1,
      preFaultLoadMultiple: 1,
      lastTriggerEndS: 300,
      attemptsPerAction: 1.19,
      attemptsPerActionP99: 5,
      attemptsPerActionMax: 5,
      wastedWorkS: 200,
      wastedWorkShare: 0.25,
      utilisation: 0.2,
      meanQueueWaitS: 0.05,
      attempts: 14000,
    });
    expect(s.attemptsHistogram).toEqual([0, 90, 5, 3, 0, 2]);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('never emits NaN or Infinity, even for an empty, unrecovered run', () => {
    const s = summarize(makeRecord(100, [{ kind: 'x', startS: 0, endS: 100 }]), S);
    expect(allFinite(s)).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.measures).toMatchObject({
      baselineRate: 0,
      preFaultSuccessRatio: null,
      preFaultLoadMultiple: null,
      recovered: 0,
      recoveryTimeS: null,
      successRatio: null,
      utilisation: 0,
      meanQueueWaitS: 0,
      wastedWorkShare: 0,
      attemptsPerAction: 0,
    });
    expect(allFinite(summarize(makeRecord(0, []), S))).toBe(true);
  });
});

describe('the registry', () => {
  it('holds one sentence, a unit and a direction for every measure, and refuses a duplicate key', () => {
    for (const d of MEASURES.all) {
      expect(d.doc, d.key).toMatch(/\.$/);
      expect(['lower', 'higher', 'none'], d.key).toContain(d.better);
    }
    expect(() => MEASURES.with(MEASURES.all[0])).toThrow(/two measures named/);
  });
});

describe('tie tolerances (the ranking\'s ties, diff\'s "beyond seed noise")', () => {
  it('gives every measure one: its own, else its unit\'s default', () => {
    for (const d of [...MEASURES.all, ...TIER_MEASURES]) {
      const t = tieTolerance(d);
      expect(t, d.key).toEqual(d.tie ? { relative: d.tie.relative ?? 0, absolute: d.tie.absolute ?? 0 } : DEFAULT_TIE[d.unit]);
      expect(t.relative >= 0 && t.absolute >= 0, d.key).toBe(true);
    }
    // Every unit's default is a tolerance, and only recovered and healthy-before-the-fault have none.
    for (const unit of Object.keys(DEFAULT_TIE) as Array<keyof typeof DEFAULT_TIE>) expect(tieLimit({ unit }, 1, 1), unit).toBeGreaterThan(0);
    expect(MEASURES.all.filter((d) => tieLimit(d, 1, 1) === 0).map((d) => d.key)).toEqual(['recovered', 'healthyBeforeTrigger']);
  });

  it('reads durations within 1 s or 5%, shares within a point, other units within 5%, by default', () => {
    expect(tieLimit({ unit: 'duration' }, 2, 3)).toBe(1);
    expect(tieLimit({ unit: 'duration' }, 100, 200)).toBe(10);
    expect(tieLimit({ unit: 'share' }, 0.2, 0.9)).toBe(0.01);
    expect(tieLimit({ unit: 'count' }, 90, 100)).toBeCloseTo(5, 12);
    expect(tieLimit({ unit: 'multiple', tie: { absolute: 0.5 } }, 9, 10)).toBe(0.5); // a declared tolerance has only what it declares
  });

  it('refuses a negative tolerance', () => {
    expect(() => defineMeasure({ ...successRatio, key: 'badTie', tie: { absolute: -0.01 } })).toThrow(/tie tolerance/);
  });
});
