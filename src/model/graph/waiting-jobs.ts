/**
 * An instance's jobs that wait in their slots for their route's calls to other services of
 * the graph: which jobs wait, when each one's execution deadline cuts it, the timer that
 * does, and the contract between the instance and a route's calls (ServiceCalls, which
 * route-calls.ts implements).
 *
 * Why a module of its own: this is the graph's part of an instance. A world without
 * services never starts a wait, and the instance's own path (begin, done, its queue) does not
 * read any of this; keeping the waiting state here, behind the small CallingInstance
 * interface, lets route-calls.ts speak to an instance without importing it, and leaves the
 * instance the work and answers it owns.
 */
import type { Engine } from '../../engine/engine.js';

/** What a route's calls see of the instance whose job waits: where to say they are over. */
export interface CallingInstance {
  /** The size of the instance's slot table (job numbers are below it). */
  readonly maxSlots: number;
  /** The job's calls are over: `ok` when they succeeded; a stale token does nothing. */
  callsDone(job: number, token: number, ok: boolean): void;
}

/**
 * A route's calls to other services: started when a request of the route reaches its slot,
 * they answer through `CallingInstance.callsDone(job, token, ok)`; a job the instance loses (a
 * crash) or cuts cancels them. `deadline` is what the request carried (Infinity: none).
 */
export interface ServiceCalls {
  start(inst: CallingInstance, job: number, token: number, deadline: number): void;
  cancel(inst: CallingInstance, job: number): void;
}

export class WaitingJobs {
  /** 1 while the job waits for its route's calls (its service time not yet known). */
  private readonly waiting: Uint8Array;
  /** When each waiting job's execution deadline runs out (Infinity: none), counted from its start in the slot. */
  private readonly cutAt: Float64Array;
  private readonly kCut: number;

  /**
   * `size` jobs; `onDue(job, token)` runs when a waiting job's execution deadline comes (the
   * instance checks the token, and whether it is paused, before it cuts the job).
   */
  constructor(
    size: number,
    private readonly engine: Engine,
    private readonly executionDeadline: number,
    private readonly inst: CallingInstance,
    onDue: (job: number, token: number) => void,
  ) {
    this.waiting = new Uint8Array(size);
    this.cutAt = new Float64Array(size);
    this.kCut = engine.on((j, token) => {
      // A slot's token lasts from one crash or pause to the next, over many jobs: a cut that
      // outlived its job finds a later job in the slot, whose own deadline is later.
      if (this.waiting[j] === 1 && this.cutAt[j] <= engine.now) onDue(j, token);
    });
  }

  /** Job j (its slot's token `token`) starts waiting now for `calls`; the request carried `deadline`. */
  start(j: number, token: number, calls: ServiceCalls, deadline: number): void {
    const now = this.engine.now;
    this.waiting[j] = 1;
    // The execution deadline counts from the slot's start: the wait for the calls is part of it.
    this.cutAt[j] = now + this.executionDeadline;
    if (this.executionDeadline < Infinity) this.engine.after(this.executionDeadline, this.kCut, j, token);
    calls.start(this.inst, j, token, deadline);
  }

  isWaiting(j: number): boolean {
    return this.waiting[j] === 1;
  }

  /** Job j's calls are over: it waits no more. */
  end(j: number): void {
    this.waiting[j] = 0;
  }

  /** Job j is cut or lost while it waits: it waits no more, and its calls still out are cancelled. */
  cancel(j: number, calls: ServiceCalls): void {
    this.waiting[j] = 0;
    calls.cancel(this.inst, j);
  }

  /** What the wait left of job j's execution deadline at `now` (s; may be 0 or less). */
  leftOf(j: number, now: number): number {
    return this.cutAt[j] - now;
  }

  /** Is job j waiting past its execution deadline at `now` (a pause kept its cut from running)? */
  overdue(j: number, now: number): boolean {
    return this.waiting[j] === 1 && this.cutAt[j] <= now;
  }
}
