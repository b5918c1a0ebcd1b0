/**
 * Checks every measure on hand-built RunRecords whose answers can be worked out on paper.
 * Most records share one shape: 10 s buckets, warm-up 60 s, a fault over [200, 300), and
 * steady traffic of 100 arrivals, 100 attempts and 99 ok / 1 failed per bucket (10 actions/s,
 * pre-fault success ratio 0.99, pre-fault load 1x).
 */
import { describe, expect, it } from 'vitest';
import { FAILURE_CAUSES, type BucketSeries, type FaultWindow, type RunRecord } from '../../src/model/series.js';
import {
  attemptsPerAction,
  baseline,
  DEFAULT_MEASURE_SETTINGS,
  derivedSeries,
  healthyBuckets,
  MEASURE_DOCS,
  peakLoadMultiple,
  peakRetryShare,
  retryShareAtPeak,
  perceivedOutageS,
  relapses,
  originalSuccessAfterFault,
  recovery,
  summarize,
  type MeasureSettings,
} from '../../src/measures/measures.js';
import { retryWaves, WAVE_RISE } from '../../src/measures/waves.js';

const S: MeasureSettings = { ...DEFAULT_MEASURE_SETTINGS };
const FAULT: FaultWindow = { kind: 'dependency-outage', startS: 200, endS: 300 };

function zeroSeries(n: number, bucketS = 10): BucketSeries {
  const z = () => new Float64Array(n);
  return {
    bucketS,
    n,
    attempts: z(),
    firstTries: z(),
    retries: z(),
    futileRetries: z(),
    routeActionsOk: [],
    routeActionsFailed: [],
    dependencyCalls: [],
    dependencyRefused: [],
    detectedRetries: z(),
    detectionFalsePositives: z(),
    attemptsOk: z(),
    firstTriesOk: z(),
    failures: FAILURE_CAUSES.map(() => z()),
    actionsStarted: z(),
    actionsOk: z(),
    actionsFailed: z(),
    actionsAbandoned: z(),
    deadLettered: z(),
    queueLen: z(),
    busySlots: z(),
    slots: z(),
    latencyP50S: z(),
    latencyP99S: z(),
    workS: z(),
    wastedWorkS: z(),
    lostAttempts: z(),
  };
}

function makeRecord(horizonS: number, faults: FaultWindow[] = [FAULT], bucketS = 10): RunRecord {
  return {
    horizonS,
    series: zeroSeries(Math.ceil(horizonS / bucketS), bucketS),
    faults,
    attemptsPerAction: [],
    routes: ['default'],
    quotas: [],
    actions: [],
    totals: {
      actionsStarted: 0,
      actionsOk: 0,
      actionsFailed: 0,
      attempts: 0,
      served: 0,
      queueWaitS: 0,
      workS: 0,
      wastedWorkS: 0,
      capacityS: 0,
      eventsProcessed: 0,
      fingerprintPeakEntries: 0,
      lostAttempts: 0,
    },
  };
}

interface Bucket {
  started?: number;
  attempts?: number;
  retries?: number;
  ok?: number;
  failed?: number;
}
const STEADY: Bucket = { started: 100, attempts: 100, retries: 0, ok: 99, failed: 1 };
/** Down, and clients hammer it at 4x. */
const DOWN: Bucket = { started: 100, attempts: 400, retries: 300, ok: 0, failed: 100 };

function set(r: RunRecord, from: number, to: number, b: Bucket): void {
  const s = r.series;
  for (let i = from; i < to; i++) {
    if (b.started !== undefined) s.actionsStarted[i] = b.started;
    if (b.attempts !== undefined) s.attempts[i] = b.attempts;
    if (b.retries !== undefined) s.retries[i] = b.retries;
    if (b.ok !== undefined) s.actionsOk[i] = b.ok;
    if (b.failed !== undefined) s.actionsFailed[i] = b.failed;
  }
}

/** Steady before the fault, down during it and until bucket `recoverAt`, steady after. */
function stormRecord(recoverAt: number, horizonS = 1000): RunRecord {
  const r = makeRecord(horizonS);
  const n = r.series.n;
  set(r, 0, 20, STEADY);
  set(r, 20, recoverAt, DOWN);
  set(r, recoverAt, n, STEADY);
  return r;
}

describe('derivedSeries', () => {
  it('divides by the real width of a short last bucket and marks meaningless ratios NaN', () => {
    const r = makeRecord(25, []); // buckets [0,10) [10,20) [20,25)
    set(r, 0, 1, { attempts: 100, retries: 30, ok: 40, failed: 10 });
    set(r, 1, 2, { attempts: 10, retries: 10, ok: 0, failed: 0 });
    set(r, 2, 3, { attempts: 50, retries: 0, ok: 20, failed: 0 });
    const d = derivedSeries(r.series, { baselineRate: 5, minAttemptsForShare: 20, horizonS: 25 });
    expect(Array.from(d.widthS)).toEqual([10, 10, 5]);
    expect(Array.from(d.offeredLoadMultiple)).toEqual([2, 0.2, 2]); // 10/s, 1/s, 10/s over 5/s
    expect(d.retryShare[0]).toBeCloseTo(0.3, 12);
    expect(d.retryShare[1]).toBeNaN(); // 10 attempts < 20
    expect(d.retryShare[2]).toBe(0);
    expect(Array.from(d.goodput)).toEqual([4, 0, 4]);
    expect(d.successRatio[0]).toBeCloseTo(0.8, 12);
    expect(d.successRatio[1]).toBeNaN();
    expect(d.successRatio[2]).toBe(1);
  });
});

describe('baseline', () => {
  it('measures the pre-fault window after warm-up, pooling ratios over buckets', () => {
    const r = makeRecord(1000, [{ kind: 'x', startS: 195, endS: 300 }]);
    set(r, 0, 6, { started: 500, attempts: 900, ok: 0, failed: 500 }); // warm-up: excluded
    set(r, 6, 19, { started: 100, attempts: 150, ok: 100, failed: 0 });
    set(r, 6, 7, { ok: 90, failed: 10 }); // pooled, not mean of per-bucket ratios
    set(r, 19, 20, { started: 900, attempts: 900, ok: 0, failed: 900 }); // [190,200) straddles 195: excluded
    const b = baseline(r, S);
    expect(b.declared).toBe(false);
    expect([b.fromS, b.toS]).toEqual([60, 190]);
    expect(b.rate).toBe(10); // 1300 actions / 130 s
    expect(b.successRatio).toBeCloseTo(1290 / 1300, 12);
    expect(b.loadMultiple).toBeCloseTo(1.5, 12);
  });

  it('uses the declared rate but the same window for the pre-fault ratios', () => {
    const r = stormRecord(30);
    const b = baseline(r, { ...S, baselineRate: 20 });
    expect(b).toMatchObject({ rate: 20, declared: true, fromS: 60, toS: 200 });
    expect(b.loadMultiple).toBeCloseTo(0.5, 12); // 10 attempts/s against a declared 20/s
    expect(b.successRatio).toBeCloseTo(0.99, 12);
  });

  it('falls back to [0, fault start) when no whole bucket fits between warm-up and the fault', () => {
    const r = makeRecord(1000, [{ kind: 'x', startS: 65, endS: 300 }]);
    set(r, 0, 6, { started: 30, attempts: 30, ok: 30 });
    set(r, 6, 100, { started: 1000, attempts: 1000, ok: 0, failed: 1000 });
    const b = baseline(r, S);
    expect([b.fromS, b.toS]).toEqual([0, 60]);
    expect(b.rate).toBe(3);
    expect(b.successRatio).toBe(1);
  });

  it('without faults uses the whole run after warm-up', () => {
    const r = makeRecord(100, []);
    set(r, 0, 6, { started: 1000 });
    set(r, 6, 10, { started: 40 });
    const b = baseline(r, S);
    expect([b.fromS, b.toS]).toEqual([60, 100]);
    expect(b.rate).toBe(4);
  });
});

describe('recovery', () => {
  it('recovers exactly when the lasting healthy run starts, k buckets after the fault', () => {
    const r = stormRecord(35); // 5 bad buckets after the fault ends at 300
    expect(recovery(r, S)).toEqual({ recovered: true, recoveryTimeS: 50, healthyFromS: 350, lastFaultEndS: 300 });
  });

  it('starts counting from the end of the last fault, not the first', () => {
    const r = stormRecord(45);
    r.faults = [FAULT, { kind: 'capacity-cut', startS: 250, endS: 420 }];
    expect(recovery(r, S).recoveryTimeS).toBe(30); // healthy from 450
  });

  it('treats the tolerances as inclusive bounds', () => {
    const r = stormRecord(30);
    // 97/100 = 0.99 - 0.02 and 120 attempts = 1.2x: both exactly at the limit, still healthy.
    set(r, 30, 31, { ok: 97, failed: 3, attempts: 120 });
    expect(recovery(r, S).recoveryTimeS).toBe(0);
    set(r, 30, 31, { attempts: 121 }); // just over the load limit
    expect(recovery(r, S).recoveryTimeS).toBe(10);
    set(r, 30, 31, { attempts: 100, ok: 96, failed: 4 }); // just under the success limit
    expect(recovery(r, S).recoveryTimeS).toBe(10);
  });

  it('skips a relapse shorter than the hold and reports the later run', () => {
    const r = stormRecord(30);
    set(r, 36, 37, DOWN); // healthy 300..360 (60 s < 120 s), relapse, healthy from 370
    expect(recovery(r, S)).toMatchObject({ recovered: true, recoveryTimeS: 70, healthyFromS: 370 });
  });

  it('does not count a healthy stretch at the end shorter than the hold', () => {
    expect(recovery(stormRecord(90), S)).toEqual({
      recovered: false,
      recoveryTimeS: null,
      healthyFromS: null,
      lastFaultEndS: 300,
    }); // healthy [900, 1000): 100 s
    expect(recovery(stormRecord(88), S).recoveryTimeS).toBe(580); // [880, 1000) is exactly 120 s
    // Horizon 995: the last bucket [990, 995) is 5 s wide, so [880, 995) is 115 s and falls
    // short, while [870, 995) is 125 s. Half a bucket of traffic keeps that bucket healthy.
    const short = stormRecord(88, 995);
    set(short, 99, 100, { started: 50, attempts: 50, ok: 99, failed: 1 });
    expect(healthyBuckets(short, S)[99]).toBe(1);
    expect(recovery(short, S).recovered).toBe(false);
    const enough = stormRecord(87, 995);
    set(enough, 99, 100, { started: 50, attempts: 50, ok: 99, failed: 1 });
    expect(recovery(enough, S).recoveryTimeS).toBe(570);
  });

  it('is 0 and recovered when there are no faults', () => {
    const r = makeRecord(1000, []);
    set(r, 0, 100, DOWN); // even a sick service: there is nothing to recover from
    expect(recovery(r, S)).toMatchObject({ recovered: true, recoveryTimeS: 0, lastFaultEndS: null });
  });

  it('does not treat a bucket in which no action ended as healthy', () => {
    const r = stormRecord(30);
    set(r, 31, 32, { ok: 0, failed: 0 }); // attempts flow, nothing completes
    expect(healthyBuckets(r, S)[31]).toBe(0);
    expect(recovery(r, S).recoveryTimeS).toBe(20); // the run restarts at 320
  });

  it('asks for a perfect success ratio, less the drop, when no action ended before the fault', () => {
    const r = stormRecord(30);
    set(r, 0, 20, { ok: 0, failed: 0 }); // actions in flight, none ended: no pre-fault ratio
    set(r, 30, 33, { ok: 97, failed: 3 }); // 0.97 < 1 - 0.02
    expect(baseline(r, S).successRatio).toBeNaN();
    expect(recovery(r, S).recoveryTimeS).toBe(30); // 0.99 >= 0.98 from 330
  });

  it('never recovers when the fault outlasts the run', () => {
    const r = stormRecord(30);
    r.faults = [{ kind: 'x', startS: 200, endS: 1000 }];
    expect(recovery(r, S).recovered).toBe(false);
  });

  it('measures the first bucket that begins at or after a fault end that falls mid-bucket', () => {
    const r = stormRecord(30);
    r.faults = [{ kind: 'x', startS: 200, endS: 295 }];
    set(r, 29, 30, STEADY); // [290, 300) is healthy but began before the fault ended
    expect(recovery(r, S).recoveryTimeS).toBe(5);
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
    expect(perceivedOutageS(r, S)).toBe(30);
    expect(perceivedOutageS(r, { ...S, perceivedOutageThreshold: 0.995 })).toBe(90); // all but the idle bucket
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
    expect(relapses(r, S)).toBe(2);
    expect(relapses(r, { ...S, relapseUpS: 50 })).toBe(3);
    expect(relapses(r, { ...S, relapseUpS: 120 })).toBe(0);
  });

  it('is 0 for a service that recovered and stayed, one that never recovered, and a run without faults', () => {
    expect(relapses(stormRecord(40), S)).toBe(0);
    const never = stormRecord(1000);
    expect(relapses(never, S)).toBe(0);
    const calm = makeRecord(500, []);
    set(calm, 0, 50, STEADY);
    set(calm, 20, 22, DOWN);
    expect(relapses(calm, S)).toBe(0);
  });

  it('does not take a lull with no users in it for the service being up', () => {
    const r = stormRecord(1000, 1500); // down from the fault on, never back
    set(r, 40, 47, { started: 0, ok: 0, failed: 0 }); // 70 s in which nobody arrives or finishes
    expect(relapses(r, S)).toBe(0);
    set(r, 47, 50, STEADY); // 30 s up after the lull: still under relapseUp
    expect(relapses(r, S)).toBe(0);
    set(r, 50, 53, STEADY); // 60 s up in all (the lull not counted), then down again
    expect(relapses(r, S)).toBe(1);
  });

  it('ignores ups and downs while the fault lasts', () => {
    const r = stormRecord(30);
    set(r, 21, 28, STEADY); // up for 70 s inside the fault
    set(r, 28, 30, DOWN);
    expect(relapses(r, S)).toBe(0);
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
    expect(retryWaves(r, S)).toBe(2);
  });

  it('does not count a storm that never ebbs, nor noise in a recovered service, nor a run without faults', () => {
    const flat = stormRecord(300, 3000);
    expect(retryWaves(flat, S)).toBe(0);
    const calm = stormRecord(30, 3000);
    for (let i = 30; i < calm.series.n; i++) calm.series.attempts[i] = i % 2 ? 80 : 118; // ±20% noise around 1x
    expect(retryWaves(calm, S)).toBe(0);
    expect(retryWaves(makeRecord(1000, []), S)).toBe(0);
  });

  it('counts the first surge when the clients were quiet as the fault ended', () => {
    const r = stormRecord(20, 3000); // steady throughout: the fault [200, 300) saw 1x
    at(r, 33, 40, 5); // 30 s after the fault, a 5x wave: wave 1
    expect(retryWaves(r, S)).toBe(1);
    at(r, 60, 70, 5); // another after it ebbed: wave 2
    expect(retryWaves(r, S)).toBe(2);
  });

  it('averages over a minute, so one spiky bucket is not a wave', () => {
    const r = stormRecord(30, 3000);
    at(r, 20, 30, 4);
    at(r, 60, 61, 3); // one 10 s bucket at 3x: the minute's mean is (3 + 5) / 6 = 1.33x < 1.5x over 1x
    expect(retryWaves(r, S)).toBe(0);
    at(r, 60, 62, 3); // two buckets: (6 + 4) / 6 = 1.67x: a wave
    expect(retryWaves(r, S)).toBe(1);
    expect(WAVE_RISE).toBe(1.5);
  });
});

describe('originalSuccessAfterFault', () => {
  it('is the share of first tries sent in the hold after the fault that succeeded', () => {
    const r = makeRecord(1000); // fault ends at 300; hold 120 s: buckets 30..41
    const s = r.series;
    for (let i = 0; i < s.n; i++) s.firstTries[i] = 10;
    for (let i = 30; i < 42; i++) s.firstTriesOk[i] = i < 36 ? 2 : 8; // 6 x 2 + 6 x 8 of 12 x 10
    s.firstTriesOk[29] = 10; // before the fault ended: not counted
    s.firstTriesOk[42] = 10; // after the hold: not counted
    expect(originalSuccessAfterFault(r, S)).toBeCloseTo(60 / 120, 12);
    expect(originalSuccessAfterFault(r, { ...S, holdS: 60 })).toBeCloseTo(12 / 60, 12);
  });

  it('is null without faults or without originals in the window', () => {
    expect(originalSuccessAfterFault(makeRecord(1000, []), S)).toBeNull();
    expect(originalSuccessAfterFault(makeRecord(1000), S)).toBeNull();
  });
});

describe('peakLoadMultiple', () => {
  it('takes the highest bucket and rates a short last bucket by its real width', () => {
    const r = stormRecord(30, 995);
    set(r, 99, 100, { attempts: 250 }); // 250 in 5 s = 50/s = 5x
    expect(peakLoadMultiple(r, S)).toBe(5);
    set(r, 99, 100, { attempts: 0 });
    expect(peakLoadMultiple(r, S)).toBe(4); // the DOWN buckets
  });
});

describe('peakRetryShare', () => {
  it('ignores buckets with fewer than minAttemptsForShare attempts', () => {
    const r = makeRecord(100, []);
    set(r, 0, 1, { attempts: 5, retries: 5 }); // share 1, but only 5 attempts
    set(r, 1, 2, { attempts: 100, retries: 60 });
    set(r, 2, 3, { attempts: 20, retries: 8 });
    expect(peakRetryShare(r, S)).toBe(0.6);
    expect(peakRetryShare(r, { ...S, minAttemptsForShare: 5 })).toBe(1);
    expect(peakRetryShare(makeRecord(100, []), S)).toBe(0);
  });
});

describe('retryShareAtPeak', () => {
  it('reads the retry share of the bucket of peak offered load, not the highest share anywhere', () => {
    const r = stormRecord(30); // baseline 10/s; DOWN buckets 20..29 at 4x with share 0.75
    set(r, 25, 26, { attempts: 500, retries: 250 }); // 5x, the peak: share 0.5
    set(r, 40, 41, { attempts: 100, retries: 90 }); // 1x but 0.9: the highest share anywhere
    expect(peakLoadMultiple(r, S)).toBe(5);
    expect(peakRetryShare(r, S)).toBe(0.9);
    expect(retryShareAtPeak(r, S)).toBe(0.5);
  });

  it('takes the first bucket on a tie and rates a short last bucket by its real width', () => {
    const r = stormRecord(30, 995); // DOWN buckets 20..29 tie at 4x
    set(r, 20, 21, { retries: 100 }); // the first of them: 100/400
    expect(retryShareAtPeak(r, S)).toBe(0.25);
    set(r, 99, 100, { attempts: 250, retries: 200 }); // 250 in 5 s = 50/s = 5x
    expect(retryShareAtPeak(r, S)).toBe(0.8);
  });

  it('is null when the peak bucket has too few attempts, and uses attempts per second with a 0 baseline', () => {
    const tiny = makeRecord(100, []);
    set(tiny, 3, 4, { attempts: 10, retries: 5 }); // the peak, but 10 < minAttemptsForShare
    expect(retryShareAtPeak(tiny, S)).toBeNull();
    expect(retryShareAtPeak(tiny, { ...S, minAttemptsForShare: 10 })).toBe(0.5);
    expect(retryShareAtPeak(makeRecord(0, []), S)).toBeNull(); // no bucket at all
    const unbased = makeRecord(100, []); // nothing started: baseline rate 0
    set(unbased, 2, 3, { attempts: 40, retries: 10 });
    set(unbased, 5, 6, { attempts: 50, retries: 40 });
    expect(peakLoadMultiple(unbased, S)).toBe(0);
    expect(retryShareAtPeak(unbased, S)).toBe(0.8);
  });
});

describe('attemptsPerAction', () => {
  it('gives mean, nearest-rank p99 and max of the histogram', () => {
    // 90 actions took 1 attempt, 5 took 2, 3 took 3, 2 took 5.
    expect(attemptsPerAction([0, 90, 5, 3, 0, 2])).toEqual({ mean: 1.19, p99: 5, max: 5 });
    expect(attemptsPerAction([0, 99, 1])).toEqual({ mean: 1.01, p99: 1, max: 2 });
    expect(attemptsPerAction([0, 98, 2]).p99).toBe(2);
    expect(attemptsPerAction([0, 297, 3]).p99).toBe(1); // cumulative count exactly at the 99% rank
  });

  it('is all zeros when no action finished', () => {
    expect(attemptsPerAction([])).toEqual({ mean: 0, p99: 0, max: 0 });
    expect(attemptsPerAction([0, 0, 0])).toEqual({ mean: 0, p99: 0, max: 0 });
  });
});

/** Every number reachable from v is finite (JSON.stringify would silently turn NaN into null). */
function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (v && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}

describe('summarize', () => {
  it('assembles every measure of a storm run', () => {
    const r = stormRecord(35);
    r.attemptsPerAction = [0, 90, 5, 3, 0, 2];
    Object.assign(r.totals, {
      actionsStarted: 10000,
      actionsOk: 7000,
      actionsFailed: 2000,
      attempts: 14000,
      served: 12000,
      queueWaitS: 600,
      workS: 800,
      wastedWorkS: 200,
      capacityS: 4000,
    });
    const { routes, quotas, ...s } = summarize(r, S);
    // One route (the default), read from the whole-run series; no dependency with a quota.
    const ok0 = r.series.actionsOk.reduce((x, y) => x + y, 0);
    const failed0 = r.series.actionsFailed.reduce((x, y) => x + y, 0);
    expect(routes).toEqual({ default: { successRatio: ok0 / (ok0 + failed0), actionsOk: ok0, actionsFailed: failed0 } });
    expect(quotas).toEqual({});
    const total = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
    // Whole-run true retry share: every retry over every attempt of the series.
    const RETRY_SHARE = total(r.series.retries) / total(r.series.attempts);
    expect(RETRY_SHARE).toBeGreaterThan(0.05);
    expect(RETRY_SHARE).toBeLessThan(0.95);
    expect(s).toEqual({
      baselineRate: 10,
      preFaultSuccessRatio: 0.99,
      preFaultLoadMultiple: 1,
      lastFaultEndS: 300,
      recovered: true,
      recoveryTimeS: 50,
      perceivedOutageS: 150, // the 15 DOWN buckets [200, 350)
      relapses: 0, // it came back once and stayed
      retryWaves: 0, // and no surge after the storm
      originalSuccessAfterFault: null, // the record holds no first tries
      peakLoadMultiple: 4,
      peakRetryShare: 0.75,
      retryShareAtPeak: 0.75, // bucket 20, the first of the DOWN buckets that tie at 4x: 300 retries of 400
      attemptsPerAction: { mean: 1.19, p99: 5, max: 5, histogram: [0, 90, 5, 3, 0, 2] },
      wastedWorkS: 200,
      wastedWorkShare: 0.25,
      successRatio: 7000 / 9000,
      goodputMean: 7,
      actionsStarted: 10000,
      actionsOk: 7000,
      actionsFailed: 2000,
      attempts: 14000,
      utilisation: 0.2,
      meanQueueWaitS: 0.05,
      futileRetryShare: 0,
      retryShare: RETRY_SHARE,
      detectedRetryShare: 0,
      detectionFalsePositiveShare: 0,
      fingerprintTableBytes: 0,
    });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it('never emits NaN or Infinity, even for an empty, unrecovered run', () => {
    const empty = makeRecord(100, [{ kind: 'x', startS: 0, endS: Infinity }]);
    const s = summarize(empty, S);
    expect(allFinite(s)).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s).toMatchObject({
      baselineRate: 0,
      preFaultSuccessRatio: null,
      preFaultLoadMultiple: null,
      lastFaultEndS: null,
      recovered: false,
      recoveryTimeS: null,
      successRatio: null,
      utilisation: 0,
      meanQueueWaitS: 0,
      wastedWorkShare: 0,
      attemptsPerAction: { mean: 0, p99: 0, max: 0 },
    });
    const zeroHorizon = summarize(makeRecord(0, []), S);
    expect(allFinite(zeroHorizon)).toBe(true);
    expect(zeroHorizon.goodputMean).toBe(0);
  });

  it('has a MEASURE_DOCS sentence for exactly its fields', () => {
    const keys = Object.keys(summarize(stormRecord(30), S)).sort();
    expect(Object.keys(MEASURE_DOCS).sort()).toEqual(keys);
    for (const k of keys) expect(MEASURE_DOCS[k]).toMatch(/\.$/);
  });
});
