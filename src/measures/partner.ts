/**
 * How the partners fared against their contracts. A partner (role partner) is a client held
 * to a contract, `contract: { limit, window }`: at most `limit` requests served in any span of
 * `window`. Refusing it above that is the policy working, so its 429s are not an outage; what
 * matters is whether the service (a) held it to the contract, and (b) served it up to the
 * contract. These measures answer both, over every partner the verdict judges (each against
 * its own contract), and are null in a run without partners.
 *
 * Resolution: the run's buckets (`measures.bucket`; story 001 uses 1 s). A contract window is
 * counted as a whole number of buckets, its length rounded to the nearest (at least one), and
 * windows slide one bucket at a time: with a bucket that divides the window and is small
 * beside it (a tenth or less) the reading is the contract's; with coarse buckets a burst
 * inside one bucket cannot be placed more finely than that bucket.
 */
import type { PartnerContract } from '../model/series.js';
import { defineMeasure } from './measure.js';
import type { RunView } from './view.js';

/** One partner's series and contract, as the measures read them. */
interface PartnerRun {
  contract: PartnerContract;
  /** The contract's window in buckets. */
  k: number;
  /** Requests served (attempts answered with success), per bucket. */
  served: Float64Array;
  /** The partner's actions (the requests it needed served), started and succeeded, per bucket. */
  offered: Float64Array;
  succeeded: Float64Array;
}

function partnerRuns(v: RunView): PartnerRun[] {
  const out: PartnerRun[] = [];
  v.record.populations.forEach((p, i) => {
    if (!v.members[i] || p.partner === null) return;
    const s = v.record.series.populations[i];
    out.push({
      contract: p.partner,
      k: Math.max(1, Math.round(p.partner.windowS / v.bucketS)),
      served: s.attemptsOk,
      offered: s.actionsStarted,
      succeeded: s.actionsOk,
    });
  });
  return out;
}

/**
 * The most of `xs` a service that kept the contract exactly could have let through: in time
 * order, each bucket's count admitted up to what the last `k` buckets leave of the limit
 * (a sliding log). Admitting early never costs a later admission more than it gains, so this
 * greedy count is the largest subset of `xs` that meets the contract.
 */
export function admissible(xs: Float64Array, limit: number, k: number): Float64Array {
  const out = new Float64Array(xs.length);
  let inWindow = 0;
  for (let i = 0; i < xs.length; i++) {
    if (i >= k) inWindow -= out[i - k];
    out[i] = Math.max(0, Math.min(xs[i], limit - inWindow));
    inWindow += out[i];
  }
  return out;
}

/** The largest sum of `k` consecutive buckets (the whole run when it is shorter). */
export function peakWindowSum(xs: Float64Array, k: number): number {
  let sum = 0, best = 0;
  for (let i = 0; i < xs.length; i++) {
    sum += xs[i];
    if (i >= k) sum -= xs[i - k];
    best = Math.max(best, sum);
  }
  return best;
}

const total = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0);

export const partnerServedShare = defineMeasure({
  key: 'partnerServedShare',
  headline: true,
  label: 'partner served up to contract',
  doc: 'Whether the partners were served up to their contracts: per window of the contract\'s length from the start of the run, the partner\'s actions that succeeded (at most what it was entitled to there) over what it was entitled to, its demand admitted in time order as an exact sliding-window limit would (min(offered, allowed)), summed over windows and partners; 1 = every request the contract allowed was served, a fail-closed limiter that refuses everything for one minute of four reads 0.75; null without partners, or when they asked for nothing.',
  unit: 'share',
  better: 'higher',
  aggregate: 'share',
  scope: 'partners',
  range: { min: 0, max: 1 },
  compute: (v) => {
    let got = 0, due = 0;
    for (const p of partnerRuns(v)) {
      const entitled = admissible(p.offered, p.contract.limit, p.k);
      for (let from = 0; from < entitled.length; from += p.k) {
        let e = 0, ok = 0;
        for (let i = from; i < Math.min(entitled.length, from + p.k); i++) {
          e += entitled[i];
          ok += p.succeeded[i];
        }
        got += Math.min(ok, e);
        due += e;
      }
    }
    return due > 0 ? got / due : null;
  },
});

export const partnerExcessShare = defineMeasure({
  key: 'partnerExcessShare',
  headline: true,
  label: 'partner served beyond contract',
  doc: 'How much the partners were served beyond their contracts: the fewest of their served requests (attempts answered with success) that would have to be taken away for no span of the contract\'s window to hold more than its limit, as a share of what they were served; 0 = held to the contract, per-instance counting behind 4 instances about 0.75; 0 when nothing was served, null without partners.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'partners',
  range: { min: 0, max: 1 },
  compute: (v) => {
    const runs = partnerRuns(v);
    if (runs.length === 0) return null;
    let served = 0, kept = 0;
    for (const p of runs) {
      served += total(p.served);
      kept += total(admissible(p.served, p.contract.limit, p.k));
    }
    return served > 0 ? (served - kept) / served : 0;
  },
});

export const partnerPeakMultiple = defineMeasure({
  key: 'partnerPeakMultiple',
  headline: true,
  label: 'partner peak vs contract',
  doc: 'How far the partners were held to their contracts at worst: the most requests a partner was served (attempts answered with success) in any span of its contract\'s window, divided by its limit, the largest over partners; 1x = held (a shared sliding log), a fixed window\'s boundary burst about 2x, per-instance counting behind 4 instances about 4x; null without partners.',
  unit: 'multiple',
  better: 'lower',
  aggregate: 'mean',
  scope: 'partners',
  compute: (v) => {
    const runs = partnerRuns(v);
    if (runs.length === 0) return null;
    return Math.max(...runs.map((p) => peakWindowSum(p.served, p.k) / p.contract.limit));
  },
});

/**
 * The partner measures the ranking should weigh when a scenario has partners, most important
 * first (each descriptor says which direction is better): served up to the contract (a
 * partner refused what it pays for is down), then how much beyond it was served (the limit
 * not holding), then the worst burst beyond it.
 */
export const PARTNER_OBJECTIVES = [partnerServedShare.key, partnerExcessShare.key, partnerPeakMultiple.key] as const;

/** The partner measures, in the order the registry lists them. */
export const PARTNER_MEASURES = [partnerServedShare, partnerExcessShare, partnerPeakMultiple] as const;
