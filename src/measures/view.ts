/**
 * One run seen from one set of users, built once and read by every measure: the users'
 * series summed over their populations, the real width of each bucket, the triggers (faults
 * and surges) and the pre-trigger baseline, the health limits, what users perceived bucket by
 * bucket, and recovery. Each is computed on first use and kept, so a run's measures share
 * one derivation instead of each recomputing its own.
 *
 * Two kinds of series meet here, on purpose: what the users did and saw (success, perceived
 * outage, attempts per action) is theirs alone, while load is the server's, whoever sends
 * it (an attacker's flood loads the server the users depend on).
 */
import { FAILURE_CAUSES, POPULATION_COUNTERS, type FaultWindow, type PopulationSeries, type RunRecord } from '../model/series.js';
import { LatencyHistogram } from '../model/latency-histogram.js';
import type { MeasureSettings } from './settings.js';
import { healthyStretchStart, timeToRecover } from './health-stretch.js';
import { latencyJudged } from '../scenario/subject.js';

/** Start time (s) of bucket i. Always computed the same way so comparisons agree everywhere. */
export function bucketStartS(bucketS: number, i: number): number {
  return i * bucketS;
}

/**
 * Real width (s) of each bucket. All are `bucketS` except possibly the last, which stops at
 * the horizon; counts are divided by this width so a short last bucket is not under-read.
 */
export function bucketWidths(n: number, bucketS: number, horizonS: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = Math.max(0, Math.min((i + 1) * bucketS, horizonS) - i * bucketS);
  return w;
}

/** The 1x reference: the arrival rate and how the service behaved before anything went wrong. */
export interface Baseline {
  /** 1x user-action rate (actions/s, every population). 0 when nothing arrived in the window and none was declared. */
  rate: number;
  /** True when the rate came from `settings.baselineRate` rather than the record. */
  declared: boolean;
  /** The reference window [fromS, toS): whole buckets only. Empty (fromS = toS) when the run has no buckets. */
  fromS: number;
  toS: number;
  /** The users' success ratio pooled over the window; NaN when none of their actions ended. */
  successRatio: number;
  /** Attempts (every population) ÷ (rate × window duration); NaN when the rate is 0. */
  loadMultiple: number;
  /** Busy slots ÷ available slots over the window; NaN when no slot was available. */
  utilisation: number;
}

/** The bounds a stretch must meet to be healthy, derived from the baseline. */
export interface HealthLimits {
  /** Success ratio at or above this. */
  minSuccessRatio: number;
  /** Offered load multiple at or below this; NaN when the baseline is 0 (the load test is then skipped). */
  maxLoadMultiple: number;
}

export interface Recovery {
  recovered: boolean;
  /**
   * Seconds to the start of the lasting healthy stretch: from the end of the last trigger (0
   * when the stretch began before it ended); when a trigger is still on at the end of the run,
   * from the start of the triggers in force when the stretch began. Null when not recovered.
   */
  recoveryTimeS: number | null;
  /** Absolute time (s) the lasting healthy stretch began (the first trigger's start at the earliest; 0 without triggers); null when not recovered. */
  healthyFromS: number | null;
}

/** What users saw in a bucket: the service up, down, or nothing (idle: no action started or ended). */
export const UP = 0, DOWN = 1, IDLE = 2;

/** Standard deviations of a window's count that the load allowance must cover (healthWindowS). */
const NOISE_SIGMAS = 5;
/** The widths a health window is widened to: round durations, as people read them. */
const ROUND_WINDOWS_S = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600];

/** The users' own counters, summed over the view's populations. */
export type UsersSeries = { [K in (typeof POPULATION_COUNTERS)[number]]: Float64Array } & { failures: Float64Array[] };

export class RunView {
  private _widths?: Float64Array;
  private _users?: UsersSeries;
  private _baseline?: Baseline;
  private _loadMultiple?: Float64Array;
  private _successRatio?: Float64Array;
  private _perceived?: Uint8Array;
  private _recovery?: Recovery;
  private _healthWindowS?: number;
  private _histogram?: number[];

  /**
   * `members[p]` says whether population p's users are in the view. The subject view (the
   * verdict's users, the only one with a per-second series) also measures recovery.
   */
  constructor(
    readonly record: RunRecord,
    readonly settings: MeasureSettings,
    readonly members: readonly boolean[],
    readonly isSubject: boolean,
  ) {}

  /** The verdict's users: legitimate populations, narrowed by the scenario's `compare.for`. */
  static subject(record: RunRecord, settings: MeasureSettings): RunView {
    return new RunView(record, settings, record.populations.map((p) => p.subject), true);
  }

  /** One population's users, whatever their role. */
  static population(record: RunRecord, settings: MeasureSettings, index: number): RunView {
    return new RunView(record, settings, record.populations.map((_, p) => p === index), false);
  }

  /** The legitimate users of one route (its attackers' refusals, or a partner's above its contract, are not the route failing). */
  static route(record: RunRecord, settings: MeasureSettings, route: number): RunView {
    return new RunView(record, settings, record.populations.map((p) => p.route === route && p.legitimate), false);
  }

  /** The partners the verdict judges, each by its contract (src/measures/partner.ts). */
  static partners(record: RunRecord, settings: MeasureSettings): RunView {
    return new RunView(record, settings, record.populations.map((p) => p.partner !== null), false);
  }

  /** Whether the view has any population at all (a scenario of partners only has no verdict's users). */
  get hasMembers(): boolean {
    return this.members.some(Boolean);
  }

  get n(): number {
    return this.record.series.n;
  }

  get bucketS(): number {
    return this.record.series.bucketS;
  }

  get horizonS(): number {
    return this.record.horizonS;
  }

  get widths(): Float64Array {
    return (this._widths ??= bucketWidths(this.n, this.bucketS, this.horizonS));
  }

  /** The users' counters per bucket. */
  get users(): UsersSeries {
    if (this._users) return this._users;
    const n = this.n;
    const pops = this.record.series.populations.filter((_, p) => this.members[p]);
    const sum = (pick: (s: PopulationSeries) => Float64Array) => {
      const out = new Float64Array(n);
      for (const s of pops) {
        const a = pick(s);
        for (let i = 0; i < n; i++) out[i] += a[i];
      }
      return out;
    };
    const users = Object.fromEntries(POPULATION_COUNTERS.map((k) => [k, sum((s) => s[k])])) as unknown as UsersSeries;
    users.failures = FAILURE_CAUSES.map((_, c) => sum((s) => s.failures[c]));
    return (this._users = users);
  }

  /** The faults and surges, and the windows in which devices were offline: recovery is measured from the end of the last. */
  get triggers(): readonly FaultWindow[] {
    return this.record.faults;
  }

  /** Start of the first trigger, or the horizon when there is none. */
  get firstTriggerStartS(): number {
    let start = this.horizonS;
    for (const f of this.triggers) start = Math.min(start, f.startS);
    return start;
  }

  /** End of the last trigger; null when there is none. */
  get lastTriggerEndS(): number | null {
    if (this.triggers.length === 0) return null;
    let end = -Infinity;
    for (const f of this.triggers) end = Math.max(end, f.endS);
    return end;
  }

  get baseline(): Baseline {
    return (this._baseline ??= this.computeBaseline());
  }

  get limits(): HealthLimits {
    const base = this.baseline;
    // No action ended before the trigger: there is nothing to compare with, so ask for the
    // best a service can do rather than accept anything.
    const ref = Number.isNaN(base.successRatio) ? 1 : base.successRatio;
    return { minSuccessRatio: ref - this.settings.successRatioDrop, maxLoadMultiple: base.loadMultiple * (1 + this.settings.loadExcess) };
  }

  /** Per bucket: attempts reaching the server per second ÷ the baseline rate; NaN when the baseline is 0. */
  get loadMultiple(): Float64Array {
    if (this._loadMultiple) return this._loadMultiple;
    const out = new Float64Array(this.n);
    const base = this.baseline.rate > 0 ? this.baseline.rate : NaN;
    const attempts = this.record.series.attempts;
    const w = this.widths;
    for (let i = 0; i < this.n; i++) out[i] = w[i] > 0 ? attempts[i] / w[i] / base : NaN;
    return (this._loadMultiple = out);
  }

  /** Per bucket: the users' actions that succeeded ÷ those that ended; NaN when none ended. */
  get successRatio(): Float64Array {
    if (this._successRatio) return this._successRatio;
    const { actionsOk, actionsFailed } = this.users;
    const out = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const ended = actionsOk[i] + actionsFailed[i];
      out[i] = ended > 0 ? actionsOk[i] / ended : NaN;
    }
    return (this._successRatio = out);
  }

  /**
   * UP, DOWN or IDLE per bucket. Down: the users' success ratio is below the threshold, or
   * they started actions but none ended (they are waiting and nothing completes). A bucket
   * with no arrivals and no endings is idle, neither up nor down. Perceived outage and
   * relapses both read this, so they always agree on what "down" was.
   */
  get perceived(): Uint8Array {
    if (this._perceived) return this._perceived;
    const sr = this.successRatio;
    const started = this.users.actionsStarted;
    const out = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) {
      if (Number.isNaN(sr[i])) out[i] = started[i] > 0 ? DOWN : IDLE;
      else out[i] = sr[i] < this.settings.perceivedOutageThreshold ? DOWN : UP;
    }
    return (this._perceived = out);
  }

  /**
   * Was the service healthy before the first trigger: the server not saturated, and each of
   * the view's populations, on its own, mostly served (its pre-trigger success ratio at or
   * above the perceived-outage threshold, or none of its actions ended). Judged per
   * population, not pooled: a small population refused before the fault is not hidden by a
   * large one served. With no population (partners only) only the server is judged.
   */
  get healthyBeforeTrigger(): boolean {
    if (this.baseline.utilisation >= this.settings.saturation) return false;
    const members = this.members.flatMap((m, p) => (m ? [p] : []));
    const views = members.length === 1 ? [this] : members.map((p) => RunView.population(this.record, this.settings, p));
    return views.every((v) => {
      const ratio = v.baseline.successRatio;
      return Number.isNaN(ratio) || ratio >= this.settings.perceivedOutageThreshold;
    });
  }

  /**
   * The width of the windows health is judged over: `measures.healthWindow` when the scenario
   * sets it; else the bucket width, widened (to a round duration, at most the hold) until a
   * window holds enough attempts at the pre-fault load that Poisson noise stays inside the
   * load allowance: five standard deviations of a count of N is 5·√N, within loadExcess·N
   * from N = (5 / loadExcess)² on (625 attempts at the default 20%). A 1 s window of a 50/s
   * service holds about 50, whose ordinary ups and downs passed 1.2x in about one window in
   * twelve: a service back to normal never held a 1-minute hold, and the verdict of one
   * simulation read "not recovered" at 1 s buckets and "recovered" at 5 s.
   */
  get healthWindowS(): number {
    if (this._healthWindowS !== undefined) return this._healthWindowS;
    const set = this.settings.healthWindowS;
    if (set !== undefined) return (this._healthWindowS = set);
    let w = this.bucketS;
    const attemptsPerS = this.baseline.rate * this.baseline.loadMultiple;
    const excess = this.settings.loadExcess;
    if (attemptsPerS > 0 && excess > 0) {
      const neededS = (NOISE_SIGMAS / excess) ** 2 / attemptsPerS;
      if (neededS > w) w = Math.max(this.bucketS, Math.min(this.settings.holdS, ROUND_WINDOWS_S.find((x) => x >= neededS) ?? Math.ceil(neededS)));
    }
    return (this._healthWindowS = w);
  }

  /**
   * Recovery, resolved to the fine series' cells (a second, for horizons up to about a day):
   * the first moment, from the first trigger's start on, from which every window of the
   * health width had the users' success ratio at or above the limit and the load at or below
   * it, for the hold, and on without a break to the end of the last trigger and for the hold
   * after it (or to the horizon, when that comes first). Users restored while a fault or an
   * attack goes on are recovered from that moment, but only if it lasts: through the trigger's
   * end and the hold after it, when the trigger's end can knock them down again (a flush of
   * queued work, a burst of retries). While a trigger is on, its own load (a surge, an
   * attacker's flood) is not held against the users; from its end on, the load must be back
   * within its limit too. A window in which no user action ended is not healthy (silence
   * during an outage is not recovery); a healthy stretch the run ends inside, shorter than
   * the hold, is not a recovery either: the simulation cannot vouch for what it did not see.
   */
  get recovery(): Recovery {
    if (this._recovery) return this._recovery;
    if (!this.isSubject) throw new Error('recovery is measured for the verdict\'s users only');
    const lastEnd = this.lastTriggerEndS;
    if (lastEnd === null) return (this._recovery = { recovered: true, recoveryTimeS: 0, healthyFromS: 0 });
    const fine = this.record.fine;
    const cellS = fine.cellS;
    const n = fine.n;
    const windowCells = Math.max(1, Math.round(this.healthWindowS / cellS));
    const holdCells = Math.max(1, Math.round(this.settings.holdS / cellS));
    const startCell = Math.max(0, Math.ceil(this.firstTriggerStartS / cellS - 1e-9));
    const endCell = Math.max(0, Math.ceil(lastEnd / cellS - 1e-9));
    const lim = this.limits;
    const i = healthyStretchStart({
      ok: fine.actionsOk.subarray(0, n), ended: fine.actionsEnded.subarray(0, n), attempts: fine.attempts.subarray(0, n), cellS, windowCells, holdCells, startCell, endCell,
      minSuccessRatio: lim.minSuccessRatio, rate: this.baseline.rate, maxLoadMultiple: lim.maxLoadMultiple,
    });
    if (i !== null) {
      const from = i * cellS;
      return (this._recovery = { recovered: true, recoveryTimeS: timeToRecover(from, this.triggers, this.horizonS), healthyFromS: from });
    }
    return (this._recovery = { recovered: false, recoveryTimeS: null, healthyFromS: null });
  }

  /**
   * The sum of one of the per-second series (record.fine) over [from, to): whole cells, and
   * the share of a cell cut at either end (spread evenly within it, all that a cell says).
   */
  fineSum(cells: Float64Array, from: number, to: number): number {
    const cellS = this.record.fine.cellS;
    let sum = 0;
    const last = Math.min(cells.length - 1, Math.ceil(to / cellS) - 1);
    for (let c = Math.max(0, Math.floor(from / cellS)); c <= last; c++) {
      const lo = Math.max(from, c * cellS), hi = Math.min(to, (c + 1) * cellS);
      if (hi > lo) sum += cells[c] * ((hi - lo) / cellS);
    }
    return sum;
  }

  /** The sum of a per-bucket series over [from, to): whole buckets, and the share of a bucket cut at either end. */
  bucketSum(buckets: Float64Array, from: number, to: number): number {
    let sum = 0;
    for (let i = 0; i < this.n; i++) {
      const start = i * this.bucketS, end = start + this.widths[i];
      const lo = Math.max(from, start), hi = Math.min(to, end);
      if (hi > lo) sum += buckets[i] * ((hi - lo) / this.widths[i]);
    }
    return sum;
  }

  /** histogram[k] = the users' finished actions that took exactly k attempts. */
  get histogram(): number[] {
    if (this._histogram) return this._histogram;
    const out: number[] = [0];
    this.record.attemptsPerActionByPopulation.forEach((h, p) => {
      if (!this.members[p]) return;
      while (out.length < h.length) out.push(0);
      h.forEach((c, k) => (out[k] += c));
    });
    while (out.length > 1 && out[out.length - 1] === 0) out.pop();
    return (this._histogram = out);
  }

  // ── Latency: the view's populations' sketches merged (src/model/latency-histogram.ts) ──

  private _actionLatency?: LatencyHistogram;
  private _attemptLatency?: LatencyHistogram;

  /** The latencies of the users' actions that ended (start to final outcome, failures included). */
  get actionLatency(): LatencyHistogram {
    return (this._actionLatency ??= this.mergedLatency('actions'));
  }

  /** The response times of the users' attempts that were answered while they waited. */
  get attemptLatency(): LatencyHistogram {
    return (this._attemptLatency ??= this.mergedLatency('attempts'));
  }

  /**
   * One kind of sketch, merged over the view's populations (exact: the order does not matter).
   * The verdict's users leave internal traffic out when they have users too (latencyJudged,
   * the rule the recorder's per-bucket latency applies as well).
   */
  private mergedLatency(kind: 'actions' | 'attempts'): LatencyHistogram {
    const judged = this.isSubject ? latencyJudged(this.record.populations.map((p) => p.role), this.members) : this.members;
    const out = new LatencyHistogram();
    this.record.latency.forEach((l, p) => {
      if (judged[p]) out.merge(l[kind]);
    });
    return out;
  }

  /** Index range [lo, hi) of the buckets lying wholly inside [fromS, toS). */
  private wholeBucketsWithin(fromS: number, toS: number): [number, number] {
    const w = this.widths;
    let lo = -1, hi = -1;
    for (let i = 0; i < this.n; i++) {
      const start = bucketStartS(this.bucketS, i);
      if (start >= fromS && start + w[i] <= toS && w[i] > 0) {
        if (lo < 0) lo = i;
        hi = i + 1;
      }
    }
    return lo < 0 ? [0, 0] : [lo, hi];
  }

  /**
   * The reference window: whole buckets inside [warm-up, first trigger); if there is none,
   * whole buckets inside [0, first trigger) (a fault before the warm-up ends still deserves a
   * comparison); if still none, the first bucket alone, the least-disturbed data the run has.
   */
  private computeBaseline(): Baseline {
    const s = this.record.series;
    const faultStart = Math.min(this.firstTriggerStartS, this.horizonS);
    let [lo, hi] = this.wholeBucketsWithin(this.settings.warmupS, faultStart);
    if (hi === lo) [lo, hi] = this.wholeBucketsWithin(0, faultStart);
    if (hi === lo && this.n > 0) [lo, hi] = [0, 1];
    const users = this.users;
    const w = this.widths;
    let duration = 0, started = 0, ok = 0, ended = 0, attempts = 0, busy = 0, slots = 0;
    for (let i = lo; i < hi; i++) {
      duration += w[i];
      started += s.actionsStarted[i];
      ok += users.actionsOk[i];
      ended += users.actionsOk[i] + users.actionsFailed[i];
      attempts += s.attempts[i];
      busy += s.busySlots[i] * w[i];
      slots += s.slots[i] * w[i];
    }
    const declared = this.settings.baselineRate !== undefined;
    const rate = declared ? (this.settings.baselineRate as number) : duration > 0 ? started / duration : 0;
    return {
      rate,
      declared,
      fromS: hi > lo ? bucketStartS(this.bucketS, lo) : 0,
      toS: hi > lo ? bucketStartS(this.bucketS, hi - 1) + w[hi - 1] : 0,
      successRatio: ended > 0 ? ok / ended : NaN,
      loadMultiple: rate > 0 && duration > 0 ? attempts / (rate * duration) : NaN,
      utilisation: slots > 0 ? busy / slots : NaN,
    };
  }
}
