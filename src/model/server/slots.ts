// Over 300 lines because a request's whole stay in a slot (start, calls, service, cut, completion, and a crash or pause meanwhile) writes one slot table and busy count; split, each part would reach into the others' state.
/**
 * An instance's slots: the requests it serves at once, each in a slot for its route's
 * service time, after the route's calls to dependencies (a failing call fails the request at
 * fail-fast cost) and to other services of the graph. While its dependency is down, a request
 * that reaches a slot fails fast. Work finished for an attempt whose client already stopped
 * waiting is wasted: the server cannot know, and still pays for it. The server's own deadline
 * refuses a request that waited too long in the queue before it starts; the execution
 * deadline cuts one that would run longer and frees its slot then.
 *
 * Partial failures reach it as small hooks (set by lifecycle.ts and src/model/faults.ts): an
 * error rate and a slowdown applied when a request starts service, a crash that loses what
 * it serves, a stop-the-world pause. A completion event carries its slot's token
 * (slot-table.ts), so one that a crash or a pause made obsolete does nothing.
 *
 * Why a module of its own: an instance (instance.ts) is two pieces of state, its queue and
 * its slots, which meet only where a request leaves the queue for a slot (`begin`) and where
 * a slot comes free (`onFree`). This is the slots' side: the slot table, the busy count, the
 * pause, the jobs waiting for their calls, and what the instance served and wasted.
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { Attempts } from '../records.js';
import type { ServiceFaults } from './service-faults.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_SERVER_DEADLINE, OUTCOME_ERROR, OUTCOME_EXECUTION_DEADLINE, OUTCOME_RESET } from '../outcomes.js';
import type { InstanceOptions } from './instance-options.js';
import { SlotTable } from './slot-table.js';
import { WaitingJobs, type CallingInstance } from '../graph/waiting-jobs.js';

/** An entry taken from the queue whose client no longer waits for it. */
export const NOBODY = -1;

/** A listener of completed jobs: time, round trip inside the instance, in-flight count at its start, failed? */
export type CompletionListener = (now: number, rtt: number, inflight: number, dropped: boolean) => void;

/** Called when the server answers an attempt whose client is still waiting. */
export type Respond = (attempt: number, outcome: number) => void;

export class Slots implements CallingInstance {
  /** Slots the instance has now (setSlots), at most maxSlots. */
  count: number;
  /** The size of the slot table: the instance never gets more slots. */
  readonly maxSlots: number;
  /** Slots serving a request now (after a cut, those above `count` finish normally). */
  busy = 0;
  dependencyDown = false;
  /** What each busy slot is doing, sized for the most slots the instance may be given. */
  private readonly jobs: SlotTable;
  /** Jobs waiting in their slots for their route's calls to other services. */
  private readonly waiting: WaitingJobs;
  private readonly executionDeadline: number;
  /** Partial failures (error rate, slowdown) while a fault sets them; undefined when none is active. */
  faults: ServiceFaults | undefined;
  private paused = false;
  /**
   * Told when a job completes (time, round trip inside the instance, in-flight count at its
   * start, failed?): each adaptive concurrency limit of the pipeline, its own listener (one
   * slot for them all let only the last stage added learn).
   */
  private readonly completionListeners: CompletionListener[] = [];
  private readonly kDone: number;
  served = 0;
  queueWaitS = 0;
  wastedWorkS = 0;

  /** `onFree` runs when a slot came free (the instance then starts what its queue holds). */
  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    private readonly opts: InstanceOptions,
    private readonly respond: Respond,
    private readonly onFree: () => void,
  ) {
    this.count = opts.slots;
    const size = Math.max(opts.slots, opts.maxSlots ?? 0);
    this.maxSlots = size;
    this.jobs = new SlotTable(size, Math.max(0, ...opts.routes.map((r) => r.calls.length)));
    this.executionDeadline = opts.executionDeadline ?? Infinity;
    this.kDone = engine.on((j, token) => this.done(j, token));
    this.waiting = new WaitingJobs(size, engine, this.executionDeadline, this, (j, token) => this.cutWaiting(j, token));
  }

  /** Adds a listener of completed jobs; returns what removes it. */
  listenToCompletions(listener: CompletionListener): () => void {
    this.completionListeners.push(listener);
    return () => {
      const i = this.completionListeners.indexOf(listener);
      if (i >= 0) this.completionListeners.splice(i, 1);
    };
  }

  /** May a request start now: a slot free, and no pause? */
  get hasRoom(): boolean {
    return this.busy < this.count && !this.paused;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /**
   * Starts serving attempt (a, gen), or an abandoned one when a is NOBODY, with a slot free
   * (`hasRoom`); `queued` attempts are still in the instance's queue behind it.
   */
  begin(a: number, gen: number, arrivedT: number, now: number, route: number, queued: number): void {
    const waited = now - arrivedT;
    if (waited > this.opts.deadline || (this.opts.deadlineOf !== undefined && a !== NOBODY && this.opts.deadlineOf(a) <= now)) {
      // (or the deadline the request carried has passed: its caller has stopped waiting for it)
      // The server's own deadline: refuse without doing the work (a cheap 503).
      if (a !== NOBODY) this.respond(a, OUTCOME_SERVER_DEADLINE);
      return;
    }
    this.served++;
    this.queueWaitS += waited;
    const handler = this.opts.routes[route];
    let outcome = this.dependencyDown ? OUTCOME_DEPENDENCY : OUTCOME_OK;
    const f = this.faults;
    if (f !== undefined && outcome === OUTCOME_OK && f.errorRate > 0 && f.errorRng() < f.errorRate) outcome = OUTCOME_ERROR;
    let extra = 0;
    // The route's calls, in order: the first that fails fails the request (at fail-fast cost).
    // Calls that went through hold the dependency until the request is done. Their flags go
    // in the row of the job this request will be, if it takes a slot (begin runs only with
    // a slot free): the next on the free stack.
    const calls = handler.calls;
    const jobs = this.jobs;
    if (calls.length > 0) {
      const row = jobs.nextFree * jobs.callsPerJob;
      for (let d = 0; d < calls.length; d++) {
        let holds = 0;
        if (outcome === OUTCOME_OK) {
          outcome = calls[d].call(route, now);
          extra += calls[d].lastLatency;
          if (outcome === OUTCOME_OK && calls[d].lastHeld) holds = 1;
        }
        jobs.holds[row + d] = holds;
      }
    }
    if (handler.services !== undefined && outcome === OUTCOME_OK) {
      // Calls to other services first: the job holds its slot while it waits (callsDone).
      this.startWaiting(a, gen, now, arrivedT, route, extra, queued);
      return;
    }
    let work = outcome === OUTCOME_OK ? handler.serviceTime() + extra : this.opts.failFastTime;
    const c = this.opts.contention;
    if (c && outcome === OUTCOME_OK) work *= 1 + c.factor * Math.pow(this.loadShare(this.busy), c.exponent);
    if (f !== undefined && f.slow && outcome === OUTCOME_OK) work = work * f.factor + (f.add ? f.add() : 0);
    if (work > this.executionDeadline) {
      // Cut at the deadline: the slot is freed then and the caller gets a 503.
      work = this.executionDeadline;
      outcome = OUTCOME_EXECUTION_DEADLINE;
    }
    if (work <= 0) {
      // Failing (or finishing) in no time holds no slot: answer now.
      this.releaseCalls(jobs.nextFree, route);
      this.finish(a, gen, outcome, 0);
      return;
    }
    const j = jobs.take();
    jobs.id[j] = a;
    jobs.gen[j] = gen;
    jobs.work[j] = work;
    jobs.outcome[j] = outcome;
    jobs.arrived[j] = arrivedT;
    jobs.route[j] = route;
    jobs.inflight[j] = this.busy + queued + 1;
    jobs.end[j] = now + work;
    jobs.busy[j] = 1;
    this.busy++;
    this.rec.busyChanged(now, +1);
    this.engine.after(work, this.kDone, j, jobs.token[j]);
  }

  /** A request whose route calls other services takes its slot and waits for them (callsDone). */
  private startWaiting(a: number, gen: number, now: number, arrivedT: number, route: number, extra: number, queued: number): void {
    const jobs = this.jobs;
    const j = jobs.take();
    jobs.id[j] = a;
    jobs.gen[j] = gen;
    jobs.work[j] = extra; // the dependencies' latency, added to the service time once the calls are over
    jobs.arrived[j] = arrivedT;
    jobs.route[j] = route;
    jobs.inflight[j] = this.busy + queued + 1;
    jobs.end[j] = Infinity;
    jobs.busy[j] = 1;
    this.busy++;
    this.rec.busyChanged(now, +1);
    const deadline = this.opts.deadlineOf !== undefined && a !== NOBODY ? this.opts.deadlineOf(a) : Infinity;
    this.waiting.start(j, jobs.token[j], this.opts.routes[route].services!, deadline);
  }

  /**
   * A job's calls to other services are over: on success it goes on with its own service
   * time (slowed by contention and faults as any), on failure it fails at fail-fast cost
   * with a dependency failure. A stale token (the job was lost to a crash) does nothing.
   */
  callsDone(j: number, token: number, ok: boolean): void {
    const jobs = this.jobs;
    if (token !== jobs.token[j] || !this.waiting.isWaiting(j)) return;
    this.waiting.end(j);
    const now = this.engine.now;
    const handler = this.opts.routes[jobs.route[j]];
    let outcome = ok ? OUTCOME_OK : OUTCOME_DEPENDENCY;
    let work = ok ? handler.serviceTime() + jobs.work[j] : this.opts.failFastTime;
    const c = this.opts.contention;
    if (c && ok) work *= 1 + c.factor * Math.pow(this.loadShare(this.busy - 1), c.exponent); // the others busy beside it
    const f = this.faults;
    if (f !== undefined && f.slow && ok) work = work * f.factor + (f.add ? f.add() : 0);
    const left = this.waiting.leftOf(j, now); // what the wait left of the execution deadline
    if (work > left) {
      work = left > 0 ? left : 0;
      outcome = OUTCOME_EXECUTION_DEADLINE;
    }
    jobs.work[j] = work;
    jobs.outcome[j] = outcome;
    if (this.paused) {
      jobs.end[j] = work; // what is left, kept while paused (resume schedules it)
      return;
    }
    jobs.end[j] = now + work;
    if (work <= 0) this.done(j, token);
    else this.engine.after(work, this.kDone, j, token);
  }

  /**
   * What contention reads: `others` busy slots over the slot count, at most 1. A job that
   * begins always finds a free slot (below 1); one that goes on after its calls may find the
   * slots cut below the jobs still running, down to none: as loaded as a full instance, not
   * more (a share of 1/0 was Infinity, and the job never ended; 0/0 was NaN).
   */
  private loadShare(others: number): number {
    return others < this.count ? others / this.count : 1;
  }

  /**
   * A job still waiting for its calls reached its execution deadline: the calls are
   * cancelled, the slot is freed and the caller gets the deadline's 503, as for a job cut in
   * its own work. A paused process runs no timer: the cut then comes when the pause ends.
   */
  private cutWaiting(j: number, token: number): void {
    // (waiting-jobs.ts runs this only for a job that still waits, at or past its deadline)
    const jobs = this.jobs;
    if (token !== jobs.token[j] || this.paused) return;
    this.waiting.cancel(j, this.opts.routes[jobs.route[j]].services!);
    jobs.work[j] = 0; // none of its own work was done
    jobs.outcome[j] = OUTCOME_EXECUTION_DEADLINE;
    this.done(j, token);
  }

  private done(j: number, token: number): void {
    const jobs = this.jobs;
    if (token !== jobs.token[j]) return; // a crash or a pause made this completion obsolete
    jobs.busy[j] = 0;
    if (jobs.callsPerJob !== 0) this.releaseCalls(j, jobs.route[j]);
    this.busy--;
    jobs.give(j);
    this.rec.busyChanged(this.engine.now, -1);
    this.finish(jobs.id[j], jobs.gen[j], jobs.outcome[j], jobs.work[j]);
    // A job that ended the instant it arrived (its calls refused at once, failing fast in 0 s)
    // has no round-trip time to learn from: like a job with no work (begin), it is no sample.
    // The RTT-based limiters cannot take one (Vegas refuses it, Gradient2 would divide by it).
    const rtt = this.engine.now - jobs.arrived[j];
    if (rtt > 0) {
      const ls = this.completionListeners;
      for (let i = 0; i < ls.length; i++) ls[i](this.engine.now, rtt, jobs.inflight[j], jobs.outcome[j] !== OUTCOME_OK);
    }
    this.onFree();
  }

  /** Job j's calls that hold a unit of their dependency's capacity give it back. */
  private releaseCalls(j: number, route: number): void {
    const calls = this.opts.routes[route].calls;
    const holds = this.jobs.holds;
    const row = j * this.jobs.callsPerJob;
    for (let d = 0; d < calls.length; d++) {
      if (holds[row + d] === 0) continue;
      holds[row + d] = 0;
      calls[d].release();
    }
  }

  /** The server is through with an attempt: answer it, or count its work as wasted. */
  private finish(a: number, gen: number, outcome: number, work: number): void {
    const awaited = a !== NOBODY && this.attempts.isAwaited(a, gen);
    if (work > 0) this.rec.workDone(this.engine.now, work, !awaited);
    if (awaited) this.respond(a, outcome);
    else this.wastedWorkS += work;
  }

  // ── Crashes and pauses (lifecycle.ts) ─────────────────────────────────────

  /**
   * The process dies: every request in service is lost. Callers still waiting see a
   * connection reset when `reset`. The elapsed part of the lost services counts as wasted
   * work. Returns the attempts lost.
   */
  crash(reset: boolean): number {
    const now = this.engine.now;
    const jobs = this.jobs;
    let lost = 0;
    for (let j = 0; j < jobs.size; j++) {
      if (!jobs.busy[j]) continue;
      jobs.busy[j] = 0;
      jobs.outdate(j);
      this.releaseCalls(j, jobs.route[j]);
      if (this.waiting.isWaiting(j)) {
        // Lost while waiting for its calls: they are cancelled, and it had done no work yet.
        this.waiting.cancel(j, this.opts.routes[jobs.route[j]].services!);
      } else {
        // Elapsed service: all of it but what was left (a paused job has its remainder stored in `end`).
        const elapsed = jobs.work[j] - (this.paused ? jobs.end[j] : jobs.end[j] - now);
        if (elapsed > 0) {
          this.rec.workDone(now, elapsed, true);
          this.wastedWorkS += elapsed;
        }
      }
      jobs.give(j);
      lost++;
      if (reset && this.attempts.isAwaited(jobs.id[j], jobs.gen[j])) this.respond(jobs.id[j], OUTCOME_RESET);
    }
    this.rec.busyChanged(now, -this.busy);
    this.busy = 0;
    return lost;
  }

  /** The process that was paused is gone (a crash, once its queue is lost too): the one that restarts is not paused. */
  forgetPause(): void {
    this.paused = false;
  }

  /** Stop-the-world: no progress and no new starts. */
  pause(): void {
    const now = this.engine.now;
    this.paused = true;
    const jobs = this.jobs;
    for (let j = 0; j < jobs.size; j++) {
      if (!jobs.busy[j] || this.waiting.isWaiting(j)) continue; // a job waiting for its calls has no completion yet
      jobs.outdate(j);
      jobs.end[j] -= now; // the service time still to run, kept while paused
    }
  }

  /** The pause is over: services in progress carry on for what they had left. */
  resume(): void {
    const now = this.engine.now;
    this.paused = false;
    const jobs = this.jobs;
    for (let j = 0; j < jobs.size; j++) {
      if (!jobs.busy[j] || this.waiting.isWaiting(j)) continue;
      const left = jobs.end[j];
      jobs.end[j] = now + left;
      this.engine.after(left, this.kDone, j, jobs.token[j]);
    }
    // Jobs waiting for their calls whose execution deadline ran out during the pause are cut now.
    for (let j = 0; j < jobs.size; j++) {
      if (jobs.busy[j] && this.waiting.overdue(j, now)) this.cutWaiting(j, jobs.token[j]);
    }
  }
}
