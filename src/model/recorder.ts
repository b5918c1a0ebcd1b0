/**
 * Aggregates what happens into time buckets as it happens, so that memory follows the
 * number of buckets and never the number of events. Counters go straight into their
 * population's bucket (the run's totals are summed when the run finishes); levels (queue
 * length, busy slots) are integrated over time; latencies go into log-scaled sketches
 * (latency-histogram.ts): one per population and kind for the whole run (the measures' p50,
 * p95, p99 and mean), and one per kind for the open bucket, summarised (p50, p99) and reset
 * when the bucket closes. Attempts' latency is every population's; actions' latency is the
 * verdict's users' (the per-bucket series of what they waited). The verdict's users are also
 * counted per second (FineSeries), so recovery time does not depend on the bucket width.
 *
 * The per-population counters of the open bucket are counted in one small typed array
 * (`open`, a row of COUNTERS per population) and folded into the series when the bucket
 * closes (or when a signal reads them mid-run: flushCounters): an event then touches one
 * cache line instead of one series array per counter, which profiling showed to be a fifth
 * of a storm's time. Counts are whole numbers, so folding them later gives the same bytes;
 * work (a sum of durations) is folded once per bucket, so it is summed in the same order too.
 */
import { FAILURE_CAUSES, POPULATION_COUNTERS, fineCellS, type BucketSeries, type FineSeries, type PopulationLatency, type PopulationSeries } from './series.js';
import { LatencyHistogram, latencyBin } from './latency-histogram.js';

const REFUSED_LOCALLY = FAILURE_CAUSES.indexOf('refused-locally');

/** The open bucket's counters per population (firstTriesOk goes to the bucket of the send, so it is not here). */
const C_ATTEMPTS = 0, C_FIRST_TRIES = 1, C_RETRIES = 2, C_FUTILE = 3, C_ATTEMPTS_OK = 4;
const C_STARTED = 5, C_OK = 6, C_FAILED = 7, C_ABANDONED = 8, C_DEAD_LETTERED = 9, C_LEFT = 10, C_STAYED_AWAY = 11;
const C_JOURNEYS = 12, C_JOURNEYS_DONE = 13, C_JOURNEYS_FAILED = 14, C_JOURNEY_TIME = 15;
/** Failures by cause start here (index + cause index). */
const C_FAILURES = 16;
const COUNTERS = C_FAILURES + FAILURE_CAUSES.length;

const NICE_BUCKETS = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];

/** About 1,000 buckets over the horizon, rounded up to a width people read easily, at least 1 s. */
export function autoBucketS(horizonS: number): number {
  const raw = horizonS / 1000;
  return NICE_BUCKETS.find((w) => w >= raw) ?? Math.ceil(raw / 86400) * 86400;
}

/** A piecewise-constant quantity integrated per bucket. */
class Level {
  value = 0;
  area = 0;
  last = 0;
  constructor(readonly out: Float64Array) {}
}

/** How a run's records are laid out: what the recorder must know before the first event. */
export interface RecorderLayout {
  horizonS: number;
  bucketS: number;
  /** Route index of each population (its length is the number of populations). */
  routeOfPopulation?: number[];
  routes?: number;
  dependencies?: number;
  /** Per population: does the verdict count its users (the fine series)? Default: every population. */
  subject?: boolean[];
  /** Per population: does the verdict's per-bucket latency count it (src/scenario/subject.ts latencyJudged)? Default: subject. */
  latencySubject?: boolean[];
}

export class Recorder {
  readonly series: BucketSeries;
  readonly fine: FineSeries;
  readonly horizonS: number;
  readonly bucketS: number;
  /** Each population's counters, filled as events happen (the run's totals are summed at the end). */
  readonly pops: PopulationSeries[];
  readonly routeOfPopulation: number[];
  private readonly subject: boolean[];
  private readonly latencySubject: boolean[];
  private bucket = 0;
  private nextEdge: number;
  /** The open bucket's latencies: attempts answered (every population), actions ended (the verdict's users). */
  private readonly bucketAttempts = new LatencyHistogram();
  private readonly bucketActions = new LatencyHistogram();
  /** Per population, the whole run's latencies (see RunRecord.latency). */
  readonly latency: PopulationLatency[];
  private readonly queue: Level;
  private readonly busy: Level;
  private readonly slots: Level;
  private readonly levels: Level[];
  /** The open bucket's per-population counters: COUNTERS per population (see the header). */
  private readonly open: Float64Array;
  /** Whether anything was counted into `open` since it was last folded. */
  private openDirty = false;
  /** Work finished (and wasted) in the open bucket, folded when it closes. */
  private openWork = 0;
  private openWasted = 0;
  /** The fine cell last computed and the times between which it certainly holds (see cell). */
  private cellIdx = 0;
  private cellLo = 0;
  private cellHi = -Infinity;
  /** Whole-run integrals of the levels (slot-seconds), kept apart from per-bucket averages. */
  busyIntegral = 0;
  slotsIntegral = 0;
  /** Finished actions by attempts taken, per population (see RunRecord.attemptsPerActionByPopulation). */
  readonly attemptsPerActionByPopulation: number[][];

  constructor(layout: RecorderLayout) {
    const { horizonS, bucketS } = layout;
    this.horizonS = horizonS;
    this.bucketS = bucketS;
    this.routeOfPopulation = layout.routeOfPopulation ?? [0];
    const routes = layout.routes ?? 1;
    const dependencies = layout.dependencies ?? 0;
    const populations = this.routeOfPopulation.length;
    this.subject = layout.subject ?? this.routeOfPopulation.map(() => true);
    this.latencySubject = layout.latencySubject ?? this.subject;
    const n = Math.max(1, Math.ceil(horizonS / bucketS - 1e-9));
    const f = () => new Float64Array(n);
    const population = (): PopulationSeries => ({
      attempts: f(), firstTries: f(), retries: f(), futileRetries: f(), attemptsOk: f(), firstTriesOk: f(),
      failures: FAILURE_CAUSES.map(f),
      actionsStarted: f(), actionsOk: f(), actionsFailed: f(), actionsAbandoned: f(), deadLettered: f(), peopleLeft: f(), actionsStayedAway: f(),
      journeysStarted: f(), journeysCompleted: f(), journeysFailed: f(), journeyTimeS: f(),
    });
    this.pops = Array.from({ length: populations }, population);
    this.attemptsPerActionByPopulation = this.pops.map(() => [0]);
    this.latency = this.pops.map(() => ({ actions: new LatencyHistogram(), attempts: new LatencyHistogram() }));
    const cellS = fineCellS(horizonS);
    const cells = Math.max(1, Math.ceil(horizonS / cellS - 1e-9));
    this.fine = {
      cellS, n: cells,
      actionsOk: new Float64Array(cells), actionsEnded: new Float64Array(cells), attempts: new Float64Array(cells),
      firstTries: new Float64Array(cells), firstTriesOk: new Float64Array(cells),
    };
    this.series = {
      bucketS, n,
      attempts: f(), firstTries: f(), retries: f(), futileRetries: f(), attemptsOk: f(), firstTriesOk: f(),
      detectedRetries: f(), detectionFalsePositives: f(),
      failures: FAILURE_CAUSES.map(f),
      actionsStarted: f(), actionsOk: f(), actionsFailed: f(), actionsAbandoned: f(), deadLettered: f(), peopleLeft: f(), actionsStayedAway: f(),
      journeysStarted: f(), journeysCompleted: f(), journeysFailed: f(), journeyTimeS: f(),
      queueLen: f(), busySlots: f(), slots: f(),
      latencyP50S: f(), latencyP99S: f(), actionLatencyP50S: f(), actionLatencyP99S: f(),
      workS: f(), wastedWorkS: f(), lostAttempts: f(),
      routeActionsOk: Array.from({ length: routes }, f),
      routeActionsFailed: Array.from({ length: routes }, f),
      dependencyCalls: Array.from({ length: dependencies }, f),
      dependencyRefused: Array.from({ length: dependencies }, f),
      populations: this.pops,
    };
    this.nextEdge = Math.min(bucketS, horizonS);
    this.queue = new Level(this.series.queueLen);
    this.busy = new Level(this.series.busySlots);
    this.slots = new Level(this.series.slots);
    this.levels = [this.queue, this.busy, this.slots];
    this.open = new Float64Array(populations * COUNTERS);
  }

  /** Index of the bucket that held time `t` (in the past), by the same edges `at` rolls over. */
  private bucketOf(t: number): number {
    const w = this.bucketS;
    let i = Math.floor(t / w);
    if ((i + 1) * w <= t) i++;
    else if (i * w > t) i--;
    return Math.max(0, Math.min(this.series.n - 1, i));
  }

  /** Index of the bucket holding `now`; rolls buckets forward when a bucket edge was crossed. */
  private at(now: number): number {
    if (now >= this.nextEdge) this.roll(now);
    return this.bucket;
  }

  /** The fine cell holding `now` (the last one at the horizon): floor(now / cellS), without a division per event. */
  private cell(now: number): number {
    if (now >= this.cellLo && now < this.cellHi) return this.cellIdx;
    return this.cellOf(now);
  }

  /**
   * Computes the fine cell, and an interval around `now` strictly inside it, a millionth of
   * a cell away from its edges: within it the division would give the same cell (its
   * rounding error is far below a millionth of a cell for any number of cells a run holds).
   */
  private cellOf(now: number): number {
    const w = this.fine.cellS;
    const i = Math.floor(now / w);
    const last = this.fine.n - 1;
    if (i >= last) {
      this.cellIdx = last;
      this.cellLo = (last + 1e-6) * w;
      this.cellHi = Infinity;
      return last;
    }
    this.cellIdx = i;
    this.cellLo = (i + 1e-6) * w;
    this.cellHi = (i + 1 - 1e-6) * w;
    return i;
  }

  /** Population `pop` sends an attempt; `futile` when it repeats a request that can never succeed. */
  attempt(now: number, pop: number, isRetry: boolean, futile: boolean): void {
    if (now >= this.nextEdge) this.roll(now);
    const o = pop * COUNTERS;
    const c = this.open;
    c[o + C_ATTEMPTS]++;
    c[o + (isRetry ? C_RETRIES : C_FIRST_TRIES)]++;
    if (futile) c[o + C_FUTILE]++;
    this.openDirty = true;
    const cell = this.cell(now);
    this.fine.attempts[cell]++;
    if (!isRetry && this.subject[pop]) this.fine.firstTries[cell]++;
  }

  /**
   * An attempt sent at `sentT` got its answer to its client: outcome 0 = ok, else 1 + failure
   * cause index; `firstTry` when it was its action's first attempt (an original request) and
   * its try was not hedged (see firstTryServed).
   */
  answer(now: number, pop: number, sentT: number, outcome: number, firstTry: boolean): void {
    if (now >= this.nextEdge) this.roll(now);
    const latencyS = now - sentT;
    if (outcome === 0) {
      this.open[pop * COUNTERS + C_ATTEMPTS_OK]++;
      if (firstTry) this.firstTryServed(pop, sentT);
    } else this.open[pop * COUNTERS + C_FAILURES + outcome - 1]++;
    this.openDirty = true;
    const bin = latencyBin(latencyS);
    this.bucketAttempts.countIn(bin);
    this.latency[pop].attempts.recordIn(bin, latencyS);
  }

  /**
   * An action's first try, sent at `sentT`, was answered with success: counted by the second
   * and bucket it was sent in. `answer` calls it for a first attempt; a hedged try (whose
   * winner may be a hedge, sent later) is counted by its client once, at the try's start.
   */
  firstTryServed(pop: number, sentT: number): void {
    this.pops[pop].firstTriesOk[this.bucketOf(sentT)]++;
    if (this.subject[pop]) this.fine.firstTriesOk[Math.min(this.fine.n - 1, Math.floor(sentT / this.fine.cellS))]++;
  }

  /** The client stopped waiting for an attempt (per-try timeout). */
  timedOut(now: number, pop: number, cause: number): void {
    this.count(now, pop, C_FAILURES + cause - 1);
  }

  actionStarted(now: number, pop: number): void {
    this.count(now, pop, C_STARTED);
  }

  /** One more of counter `k` for population `pop` in the bucket holding `now`. */
  private count(now: number, pop: number, k: number): void {
    if (now >= this.nextEdge) this.roll(now);
    this.open[pop * COUNTERS + k]++;
    this.openDirty = true;
  }

  /**
   * An action of population `pop` that started at `startT` ended now, in success or not,
   * after `attempts` attempts: its latency is the whole wait, backoff and queueing included.
   */
  actionEnded(now: number, pop: number, ok: boolean, attempts: number, startT: number): void {
    this.count(now, pop, ok ? C_OK : C_FAILED);
    const latencyS = now - startT;
    const bin = latencyBin(latencyS);
    this.latency[pop].actions.recordIn(bin, latencyS);
    if (this.subject[pop]) {
      const c = this.cell(now);
      this.fine.actionsEnded[c]++;
      if (ok) this.fine.actionsOk[c]++;
    }
    if (this.latencySubject[pop]) this.bucketActions.countIn(bin);
    const h = this.attemptsPerActionByPopulation[pop];
    while (h.length <= attempts) h.push(0);
    h[attempts]++;
  }

  /** The user gave up on the action (started at `startT`): a failure from the user's view, counted apart too. */
  actionAbandoned(now: number, pop: number, attempts: number, startT: number): void {
    this.actionEnded(now, pop, false, attempts, startT);
    this.count(now, pop, C_ABANDONED);
  }

  /** A person of population `pop` left the service after a failed action (behaviour.leave). */
  personLeft(now: number, pop: number): void {
    this.count(now, pop, C_LEFT);
  }

  /** An arrival of population `pop` fell on a person who was away: no action started. */
  stayedAway(now: number, pop: number): void {
    this.count(now, pop, C_STAYED_AWAY);
  }

  /** A journey starts with an action of population `pop`. */
  journeyStarted(now: number, pop: number): void {
    this.count(now, pop, C_JOURNEYS);
  }

  /** A journey started by population `pop` ended: complete after `timeS` seconds, or failed at a step. */
  journeyEnded(now: number, pop: number, complete: boolean, timeS: number): void {
    if (!complete) return this.count(now, pop, C_JOURNEYS_FAILED);
    this.count(now, pop, C_JOURNEYS_DONE);
    this.open[pop * COUNTERS + C_JOURNEY_TIME] += timeS;
  }

  /** A try refused before it was sent (breaker open, client-side throttling). */
  refusedLocally(now: number, pop: number): void {
    this.count(now, pop, C_FAILURES + REFUSED_LOCALLY);
  }

  /** A call to dependency `d`: accepted by the provider, or refused (quota exhausted, down). */
  dependencyCall(d: number, now: number, accepted: boolean): void {
    const b = this.at(now);
    if (accepted) this.series.dependencyCalls[d][b]++;
    else this.series.dependencyRefused[d][b]++;
  }

  /** Attempts lost when an instance crashed or restarted (in service, queued, or held by one of its stages). */
  lost(now: number, n: number): void {
    if (n > 0) this.series.lostAttempts[this.at(now)] += n;
  }

  deadLettered(now: number, pop: number): void {
    this.count(now, pop, C_DEAD_LETTERED);
  }

  workDone(now: number, workS: number, wasted: boolean): void {
    if (now >= this.nextEdge) this.roll(now);
    if (this.nextEdge === Infinity) {
      // The last bucket closed before the horizon (a horizon a hair past a whole number of
      // buckets): what comes after is added to it at once, in order, as it always was.
      this.series.workS[this.bucket] += workS;
      if (wasted) this.series.wastedWorkS[this.bucket] += workS;
      return;
    }
    this.openWork += workS;
    if (wasted) this.openWasted += workS;
  }

  /**
   * Folds the open bucket's per-population counts into the series, so that they can be read
   * mid-run (operator signals). Counts are whole numbers: folding early or late adds the same.
   */
  flushCounters(): void {
    if (!this.openDirty) return;
    this.openDirty = false;
    const c = this.open;
    const b = this.bucket;
    for (let p = 0; p < this.pops.length; p++) {
      const o = p * COUNTERS;
      const s = this.pops[p];
      for (let k = 0; k < COUNTERS; k++) {
        const v = c[o + k];
        if (v === 0) continue;
        c[o + k] = 0;
        seriesOf(s, k)[b] += v;
      }
    }
  }

  /** Levels summed over instances change by deltas: each instance reports its own changes. */
  queueChanged(now: number, delta: number): void {
    if (delta === 0) return;
    // change(), for the queue (the hot case: once per queued attempt).
    if (now >= this.nextEdge) this.roll(now);
    const l = this.queue;
    l.area += l.value * (now - l.last);
    l.last = now;
    l.value += delta;
  }

  busyChanged(now: number, delta: number): void {
    // change(), for busy slots (once per service start and end).
    if (now >= this.nextEdge) this.roll(now);
    const l = this.busy;
    const dt = now - l.last;
    l.area += l.value * dt;
    this.busyIntegral += l.value * dt;
    l.last = now;
    l.value += delta;
  }

  slotsChanged(now: number, delta: number): void {
    this.change(this.slots, now, delta);
  }

  private change(level: Level, now: number, delta: number): void {
    if (now >= this.nextEdge) this.roll(now);
    const dt = now - level.last;
    level.area += level.value * dt;
    if (level === this.busy) this.busyIntegral += level.value * dt;
    else if (level === this.slots) this.slotsIntegral += level.value * dt;
    level.last = now;
    level.value += delta;
  }

  /** A request the server's detection marked as a retry; `falsePositive` when it was in fact a first try. */
  detectedRetry(now: number, falsePositive: boolean): void {
    const b = this.at(now);
    this.series.detectedRetries[b]++;
    if (falsePositive) this.series.detectionFalsePositives[b]++;
  }

  /** Closes every bucket whose end is at or before `now` (the horizon closes the last one). */
  private roll(now: number): void {
    const s = this.series;
    while (now >= this.nextEdge && this.bucket < s.n) {
      this.flushCounters();
      // Work is folded once per bucket, so its sum is added up in the order it was done.
      if (this.openWork !== 0) {
        s.workS[this.bucket] += this.openWork;
        s.wastedWorkS[this.bucket] += this.openWasted;
        this.openWork = 0;
        this.openWasted = 0;
      }
      const edge = this.nextEdge;
      const start = this.bucket * this.bucketS;
      const width = edge - start;
      for (const l of this.levels) {
        const dt = edge - l.last;
        l.area += l.value * dt;
        if (l === this.busy) this.busyIntegral += l.value * dt;
        else if (l === this.slots) this.slotsIntegral += l.value * dt;
        l.out[this.bucket] = width > 0 ? l.area / width : l.value;
        l.area = 0;
        l.last = edge;
      }
      this.closeLatency(this.bucket);
      if (this.bucket === s.n - 1) { this.nextEdge = Infinity; break; }
      this.bucket++;
      this.nextEdge = Math.min((this.bucket + 1) * this.bucketS, this.horizonS);
    }
  }

  /** The bucket's latency quantiles (NaN when nothing was answered, or no action ended), and fresh sketches for the next. */
  private closeLatency(b: number): void {
    const s = this.series, at = this.bucketAttempts, act = this.bucketActions;
    s.latencyP50S[b] = at.quantile(0.5);
    s.latencyP99S[b] = at.quantile(0.99);
    s.actionLatencyP50S[b] = act.quantile(0.5);
    s.actionLatencyP99S[b] = act.quantile(0.99);
    at.reset();
    act.reset();
  }

  /**
   * Whole-run integrals of busy slots and of available slots up to `now` (slot-seconds), for
   * signals measured inside a run (utilisation over an interval is the ratio of their growth).
   */
  busyIntegralAt(now: number): number {
    return this.busyIntegral + this.busy.value * (now - this.busy.last);
  }

  slotsIntegralAt(now: number): number {
    return this.slotsIntegral + this.slots.value * (now - this.slots.last);
  }

  /** Closes the run at the horizon, and sums the populations' counters into the run's totals. */
  finish(): void {
    this.roll(this.horizonS);
    // Counts made after the last bucket closed early (see workDone) go to it.
    this.flushCounters();
    const s = this.series;
    for (const pop of this.pops) {
      for (const k of POPULATION_COUNTERS) addInto(s[k], pop[k]);
      pop.failures.forEach((f, c) => addInto(s.failures[c], f));
    }
    this.pops.forEach((pop, p) => {
      const route = this.routeOfPopulation[p];
      addInto(s.routeActionsOk[route], pop.actionsOk);
      addInto(s.routeActionsFailed[route], pop.actionsFailed);
    });
  }

  /** Finished actions by attempts taken, over every population. */
  get attemptsPerAction(): number[] {
    const out: number[] = [0];
    for (const h of this.attemptsPerActionByPopulation) {
      while (out.length < h.length) out.push(0);
      h.forEach((c, k) => (out[k] += c));
    }
    return out;
  }
}

/** The series of a population that counter `k` of the open bucket folds into. */
function seriesOf(s: PopulationSeries, k: number): Float64Array {
  switch (k) {
    case C_ATTEMPTS: return s.attempts;
    case C_FIRST_TRIES: return s.firstTries;
    case C_RETRIES: return s.retries;
    case C_FUTILE: return s.futileRetries;
    case C_ATTEMPTS_OK: return s.attemptsOk;
    case C_STARTED: return s.actionsStarted;
    case C_OK: return s.actionsOk;
    case C_FAILED: return s.actionsFailed;
    case C_ABANDONED: return s.actionsAbandoned;
    case C_DEAD_LETTERED: return s.deadLettered;
    case C_LEFT: return s.peopleLeft;
    case C_STAYED_AWAY: return s.actionsStayedAway;
    case C_JOURNEYS: return s.journeysStarted;
    case C_JOURNEYS_DONE: return s.journeysCompleted;
    case C_JOURNEYS_FAILED: return s.journeysFailed;
    case C_JOURNEY_TIME: return s.journeyTimeS;
    default: return s.failures[k - C_FAILURES];
  }
}

function addInto(total: Float64Array, part: Float64Array): void {
  for (let i = 0; i < total.length; i++) total[i] += part[i];
}
