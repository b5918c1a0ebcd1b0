/**
 * The measures by role, on hand-built records whose answers can be worked out on paper: the
 * health gate judged per user population (not pooled), partners and attackers never failing
 * it, the partner measures against a contract, and what a run with no verdict's users says.
 */
import { describe, expect, it } from 'vitest';
import type { FaultWindow } from '../../src/model/series.js';
import { DEFAULT_MEASURE_SETTINGS } from '../../src/measures/settings.js';
import { RunView } from '../../src/measures/view.js';
import { summarize } from '../../src/measures/summarize.js';
import { MEASURES } from '../../src/measures/registry.js';
import { admissible, peakWindowSum, PARTNER_OBJECTIVES } from '../../src/measures/partner.js';
import { makeRecord, set } from './record-builder.js';

const S = DEFAULT_MEASURE_SETTINGS;
const FAULT: FaultWindow = { kind: 'dependency-outage', startS: 200, endS: 300 };

describe('the health gate, per population', () => {
  // 10 s buckets, fault at 200 s: the pre-fault window is [60, 200).
  const twoUsers = (smallOk: number) => {
    const r = makeRecord(400, [FAULT], 10, [{ name: 'app' }, { name: 'signups' }]);
    set(r, 0, 40, { started: 1000, attempts: 1000, ok: 990, failed: 10 }, 0);
    set(r, 0, 40, { started: 20, attempts: 20, ok: smallOk, failed: 20 - smallOk }, 1);
    return r;
  };

  it('fails when one user population is refused before the fault, though pooled they look served', () => {
    const r = twoUsers(0);
    const v = RunView.subject(r, S);
    // Pooled: 990 of 1020 = 97% served, above the 90% threshold: the old rule passed it.
    expect(v.baseline.successRatio).toBeCloseTo(990 / 1020, 12);
    expect(v.healthyBeforeTrigger).toBe(false);
    expect(summarize(r).measures.healthyBeforeTrigger).toBe(0);
    // Each population served at 95% or more: healthy.
    expect(RunView.subject(twoUsers(19), S).healthyBeforeTrigger).toBe(true);
  });

  it('a partner refused above its contract, or an attacker refused, never fails it', () => {
    for (const other of [{ name: 'partner', partner: { limit: 10, windowS: 60 } }, { name: 'bots', legitimate: false }]) {
      const r = makeRecord(400, [FAULT], 10, [{ name: 'app' }, other]);
      set(r, 0, 40, { started: 100, attempts: 100, ok: 100, failed: 0 }, 0);
      set(r, 0, 40, { started: 100, attempts: 100, ok: 1, failed: 99 }, 1);
      expect(r.populations[1].subject).toBe(false);
      expect(RunView.subject(r, S).healthyBeforeTrigger).toBe(true);
    }
  });

  it('internal traffic is judged like users', () => {
    const r = makeRecord(400, [FAULT], 10, [{ name: 'app' }, { name: 'batch', role: 'internal' }]);
    set(r, 0, 40, { started: 100, attempts: 100, ok: 100, failed: 0 }, 0);
    set(r, 0, 40, { started: 10, attempts: 10, ok: 0, failed: 10 }, 1);
    expect(RunView.subject(r, S).healthyBeforeTrigger).toBe(false);
  });
});

describe('the partner measures', () => {
  it('admissible: the most of a series an exact sliding window lets through, in time order', () => {
    // Limit 10 per 3 buckets.
    expect(Array.from(admissible(Float64Array.from([6, 6, 6, 6, 6, 6]), 10, 3))).toEqual([6, 4, 0, 6, 4, 0]);
    expect(Array.from(admissible(Float64Array.from([0, 20, 0, 0, 3]), 10, 3))).toEqual([0, 10, 0, 0, 3]);
    expect(peakWindowSum(Float64Array.from([1, 5, 5, 0, 9]), 2)).toBe(10);
    expect(peakWindowSum(Float64Array.from([1, 2]), 5)).toBe(3);
  });

  /** One partner, 1 s buckets, contract 10 per 10 s, asking 2/s for 60 s, served `served[i]` per second. */
  const partnerRun = (served: (i: number) => number, extra: { asked?: (i: number) => number } = {}) => {
    const r = makeRecord(60, [], 1, [{ name: 'partner', partner: { limit: 10, windowS: 10 } }]);
    for (let i = 0; i < 60; i++) {
      const ok = served(i), asked = extra.asked?.(i) ?? 2;
      set(r, i, i + 1, { started: asked, attempts: asked, ok, attemptsOk: ok, failed: asked - ok }, 0);
    }
    return summarize(r).measures;
  };

  it('held to the contract and served up to it: a sliding log', () => {
    // 2/s asked, 10 per 10 s allowed: the first 5 s of every 10 s served, as a sliding log does.
    const m = partnerRun((i) => (i % 10 < 5 ? 2 : 0));
    expect(m.partnerPeakMultiple).toBe(1);
    expect(m.partnerExcessShare).toBe(0);
    expect(m.partnerServedShare).toBe(1);
  });

  it('everything served: twice the contract at the peak, half of it beyond', () => {
    const m = partnerRun(() => 2);
    expect(m.partnerPeakMultiple).toBe(2); // 20 in any 10 s
    expect(m.partnerExcessShare).toBe(0.5); // 60 of 120 beyond the contract
    expect(m.partnerServedShare).toBe(1);
  });

  it('refused everything for 20 s of 60: served 4 windows of 6', () => {
    const m = partnerRun((i) => (i >= 20 && i < 40 ? 0 : i % 10 < 5 ? 2 : 0));
    expect(m.partnerServedShare).toBeCloseTo(4 / 6, 12);
    expect(m.partnerExcessShare).toBe(0);
    expect(m.partnerPeakMultiple).toBe(1);
  });

  it('a partner that asks less than its contract is owed only what it asked', () => {
    // 1 request every other second: 5 per 10 s, all due; served all but one.
    const m = partnerRun((i) => (i % 2 === 0 && i !== 30 ? 1 : 0), { asked: (i) => (i % 2 === 0 ? 1 : 0) });
    expect(m.partnerServedShare).toBeCloseTo(29 / 30, 12);
    expect(m.partnerPeakMultiple).toBe(0.5);
  });

  it('a fixed window served at its boundary: 2x in 10 s, though every calendar window holds the limit', () => {
    // 10 served in [5, 10) and 10 in [10, 15), then nothing: the 10-s span [5, 15) holds 20.
    const m = partnerRun((i) => (i >= 5 && i < 15 ? 2 : 0), { asked: (i) => (i >= 5 && i < 15 ? 2 : 0) });
    expect(m.partnerPeakMultiple).toBe(2);
    expect(m.partnerExcessShare).toBe(0.5);
    // Owed: the first 10 asked (a sliding contract admits no more within 10 s of them).
    expect(m.partnerServedShare).toBe(1);
  });

  it('null without partners; partners pooled, each against its own contract', () => {
    const none = makeRecord(60, [], 1, [{ name: 'app' }]);
    set(none, 0, 60, { started: 2, attempts: 2, ok: 2, attemptsOk: 2 }, 0);
    const m = summarize(none).measures;
    expect([m.partnerServedShare, m.partnerExcessShare, m.partnerPeakMultiple]).toEqual([null, null, null]);

    const two = makeRecord(60, [], 1, [{ name: 'small', partner: { limit: 10, windowS: 10 } }, { name: 'big', partner: { limit: 40, windowS: 10 } }]);
    set(two, 0, 60, { started: 2, attempts: 2, ok: 2, attemptsOk: 2 }, 0); // 2x its contract
    set(two, 0, 60, { started: 2, attempts: 2, ok: 2, attemptsOk: 2 }, 1); // half its contract
    const p = summarize(two).measures;
    expect(p.partnerPeakMultiple).toBe(2);
    expect(p.partnerExcessShare).toBe(60 / 240);
    expect(p.partnerServedShare).toBe(1);
  });

  it('lists the ranking\'s partner objectives, each a registered measure with a direction', () => {
    expect(PARTNER_OBJECTIVES).toEqual(['partnerServedShare', 'partnerExcessShare', 'partnerPeakMultiple']);
    expect(PARTNER_OBJECTIVES.map((k) => MEASURES.get(k)?.better)).toEqual(['higher', 'lower', 'lower']);
  });
});

describe('a run whose verdict has no users (partners only)', () => {
  const partnersOnly = (faults: FaultWindow[]) => {
    const r = makeRecord(400, faults, 10, [{ name: 'partner', partner: { limit: 100, windowS: 60 } }]);
    set(r, 0, 40, { started: 100, attempts: 100, ok: 20, attemptsOk: 20, failed: 80 }, 0);
    return summarize(r).measures;
  };

  it('has no success; recovery is null with triggers (nobody to judge) and vacuous without; the gate judges the server only', () => {
    const m = partnersOnly([FAULT]);
    expect(m.successRatio).toBeNull();
    expect(m.recovered).toBeNull();
    expect(m.recoveryTimeS).toBeNull();
    expect(m.healthyBeforeTrigger).toBe(1);
    const calm = partnersOnly([]);
    expect([calm.recovered, calm.recoveryTimeS]).toEqual([1, 0]);
  });
});
