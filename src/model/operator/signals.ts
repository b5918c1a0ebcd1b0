/**
 * The signals an alert (or an autoscaler) watches, measured inside the run the way a
 * monitoring system would: each check reads counters at its end and compares them with the
 * previous check's, so a ratio covers exactly the interval between two checks.
 *
 * Counters are read from the recorder's per-population bucket series, which the model fills
 * as events happen (the run's totals are only summed when it ends): the cumulative value at
 * time t is the sum over the populations of every bucket up to the one holding t (later
 * buckets are still empty). Nothing is added to the hot path for this: the recorder counts
 * the open bucket apart and folds it in when asked (flushCounters), which a read does first.
 */
import type { Scenario } from '../../scenario/schema.js';
import type { Trigger } from '../../scenario/schema-actions.js';
import type { Recorder } from '../recorder.js';
import type { Frontend } from '../server/frontend.js';
import { FAILURE_CAUSES } from '../series.js';
import { rateAt } from '../../scenario/arrival-profile.js';

/** A running sum of per-bucket series (one per population counted), read at increasing times. */
class Cumulative {
  private closed = 0;
  private upTo = 0;
  constructor(private readonly parts: readonly Float64Array[], private readonly bucketS: number, private readonly flush: () => void) {}
  /** Everything counted before `now` (and at `now`, up to the event being handled). */
  at(now: number): number {
    this.flush();
    let open = 0;
    for (const a of this.parts) {
      // The bucket holding `now`, give or take one at an edge: the bucket after it is empty or
      // holds only events at `now`, so adding it is exact either way.
      const c = Math.min(a.length - 1, Math.floor(now / this.bucketS));
      open += a[c] + (c + 1 < a.length ? a[c + 1] : 0);
    }
    const n = this.parts[0]?.length ?? 0;
    const c = Math.min(n - 1, Math.floor(now / this.bucketS));
    for (; this.upTo < c; this.upTo++) for (const a of this.parts) this.closed += a[this.upTo];
    return this.closed + open;
  }
}

const REFUSED_LOCALLY = FAILURE_CAUSES.indexOf('refused-locally');

/** One signal as one trigger reads it: `read(now)` gives its value over the interval since the last read. */
export interface SignalReader {
  read(now: number): number;
}

export interface SignalSources {
  rec: Recorder;
  server: Frontend;
  scenario: Scenario;
}

/** A reader for the trigger's signal (its own counters, so triggers with different intervals do not interfere). */
export function signalReader(t: Trigger, src: SignalSources): SignalReader {
  const w = src.rec.series.bucketS;
  const pops = src.rec.pops;
  /** A counter summed over the populations `on` keeps (every one by default). */
  const cum = (counter: (p: (typeof pops)[number]) => Float64Array, on = (_i: number) => true) =>
    new Cumulative(pops.filter((_, i) => on(i)).map(counter), w, () => src.rec.flushCounters());
  switch (t.signal!) {
    case 'error-ratio': {
      // Attempts that ended, as clients saw them: successes and failures (timeouts included),
      // but not the tries a client refused itself, which never reached the server.
      const failed = FAILURE_CAUSES.map((_, i) => (i === REFUSED_LOCALLY ? undefined : cum((p) => p.failures[i]))).filter((c) => c !== undefined);
      const ok = cum((p) => p.attemptsOk);
      return ratio(
        (now) => failed.reduce((x, c) => x + c.at(now), 0),
        (now) => ok.at(now) + failed.reduce((x, c) => x + c.at(now), 0),
      );
    }
    case 'success': {
      const route = t.route === undefined ? -1 : src.server.ids.routes.indexOf(t.route);
      const onRoute = (i: number) => route < 0 || src.rec.routeOfPopulation[i] === route;
      const ok = cum((p) => p.actionsOk, onRoute), failed = cum((p) => p.actionsFailed, onRoute);
      return ratio((now) => ok.at(now), (now) => ok.at(now) + failed.at(now));
    }
    case 'load': {
      const attempts = cum((p) => p.attempts);
      let last = 0, lastT = 0;
      const declared = src.scenario.measures.baseline;
      const profiles = Object.values(src.scenario.clients);
      return {
        read(now) {
          const n = attempts.at(now);
          const rate = (n - last) / (now - lastT);
          last = n;
          lastT = now;
          // The 1x rate: the one the scenario declares, or what the populations' profiles
          // send at this time before any surge (users, not retries).
          const base = declared ?? profiles.reduce((x, p) => x + rateAt(p.arrivals, now), 0);
          return base > 0 ? rate / base : NaN;
        },
      };
    }
    case 'queue':
      return { read: () => src.server.instances.reduce((x, i) => x + i.queued, 0) };
    case 'quota': {
      const dep = src.server.dependencies.find((d) => (t.dependency === undefined ? d.report().limit > 0 : d.name === t.dependency));
      return { read: (now) => (dep ? dep.quotaUse(now) : NaN) };
    }
    case 'utilisation': {
      let busy = src.rec.busyIntegralAt(0), slots = src.rec.slotsIntegralAt(0);
      return {
        read(now) {
          const b = src.rec.busyIntegralAt(now), c = src.rec.slotsIntegralAt(now);
          const u = c > slots ? (b - busy) / (c - slots) : NaN;
          busy = b;
          slots = c;
          return u;
        },
      };
    }
  }
}

/** The ratio of two counters' growth since the last read; NaN when the denominator did not grow. */
function ratio(num: (now: number) => number, den: (now: number) => number): SignalReader {
  let n0 = 0, d0 = 0;
  return {
    read(now) {
      const n = num(now), d = den(now);
      const r = d > d0 ? (n - n0) / (d - d0) : NaN;
      n0 = n;
      d0 = d;
      return r;
    },
  };
}
