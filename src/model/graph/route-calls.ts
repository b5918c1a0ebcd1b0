/**
 * One route's calls to other services: the edge of the graph as the caller's instance meets
 * it. When a request of the route reaches its slot, the instance hands the job here; the
 * calls go out through the called service's callers (a Clients whose populations are the
 * calls into that service, each with its own retry layers), sequentially or all at once,
 * and the job hears once: the calls succeeded (sequential: all of them; parallel: the first
 * k), or they can no longer succeed. Calls still out then are cancelled; the called service
 * may still do their work, as a real one would unless the deadline travelled with them.
 *
 * A job's calls are a group, kept in plain arrays with a free list (one group per job
 * waiting, not per call). A call is tagged `group * 64 + index` (a route has at most 64
 * calls), which its Clients hands back when the call ends.
 */
import type { Clients } from '../client/clients.js';
import type { Actions } from '../records.js';
import type { CallingInstance, ServiceCalls } from './waiting-jobs.js';

/** Where one call of the route goes: the called service's callers, and the population standing for this call. */
export interface CallTarget {
  clients: Clients;
  actions: Actions;
  population: number;
  /** Does the caller's deadline travel with the call? */
  propagate: boolean;
  /** Caller instances: each is a client of its own (its HTTP library's budgets and breakers). */
  clientsCount: number;
}

const MAX_CALLS = 64;
/** A call not started yet, or ended: nothing to cancel. */
const NONE = -1;
/** A call being started: it may end before `Clients.call` returns. */
const STARTING = -2;

export class RouteCalls implements ServiceCalls {
  private readonly n: number;
  private readonly need: number;
  // Per group: the job waiting, what it has heard so far, and its calls in flight.
  private gInst: Array<CallingInstance | undefined> = [];
  private gJob: number[] = [];
  private gToken: number[] = [];
  private gDeadline: number[] = [];
  private gClient: number[] = [];
  private gOk: number[] = [];
  private gFail: number[] = [];
  private gAct: number[] = [];
  private gGen: number[] = [];
  /** Per group: which use of it this is (a count over all groups; 0 while free), so a loop that started one use can tell it ended. */
  private gLife: number[] = [];
  private lives = 0;
  private readonly free: number[] = [];
  /** Per caller instance: the group of each of its job slots (-1: none), and its client number. */
  private readonly groupOf = new Map<CallingInstance, Int32Array>();
  private readonly clientOf = new Map<CallingInstance, number>();

  constructor(private readonly targets: CallTarget[], private readonly parallel: boolean, fanIn: number | undefined) {
    if (targets.length > MAX_CALLS) throw new RangeError(`a route makes at most ${MAX_CALLS} service calls`);
    this.n = targets.length;
    this.need = parallel ? Math.min(fanIn ?? targets.length, targets.length) : targets.length;
  }

  start(inst: CallingInstance, job: number, token: number, deadline: number): void {
    const g = this.free.length ? this.free.pop()! : this.gJob.length;
    this.gInst[g] = inst;
    this.gJob[g] = job;
    this.gToken[g] = token;
    this.gDeadline[g] = deadline;
    this.gClient[g] = this.client(inst);
    this.gOk[g] = 0;
    this.gFail[g] = 0;
    const life = (this.gLife[g] = ++this.lives);
    for (let i = 0; i < this.n; i++) this.gAct[g * MAX_CALLS + i] = NONE;
    this.jobs(inst)[job] = g;
    if (!this.parallel) return this.launch(g, 0);
    for (let i = 0; i < this.n; i++) {
      // A call that ends at once may settle the group (and free it) before the others start;
      // the job's slot may then have gone to the next queued request, which may have taken
      // this same group (same instance, job and token): only the group's life tells them apart.
      if (this.gLife[g] !== life) return;
      this.launch(g, i);
    }
  }

  cancel(inst: CallingInstance, job: number): void {
    const jobs = this.jobs(inst);
    const g = jobs[job];
    if (g < 0) return;
    this.release(g);
  }

  /** Call `i` of group `g` ended (its Clients says so, through the graph). */
  ended(tag: number, ok: boolean): void {
    const g = Math.floor(tag / MAX_CALLS), i = tag % MAX_CALLS;
    const k = g * MAX_CALLS + i;
    if (this.gInst[g] === undefined || this.gAct[k] === NONE) return;
    this.gAct[k] = NONE;
    if (ok) this.gOk[g]++;
    else this.gFail[g]++;
    if (!this.parallel) {
      if (!ok) return this.settle(g, false);
      if (i + 1 < this.n) return this.launch(g, i + 1);
      return this.settle(g, true);
    }
    if (this.gOk[g] >= this.need) return this.settle(g, true);
    if (this.gFail[g] > this.n - this.need) return this.settle(g, false);
  }

  private launch(g: number, i: number): void {
    const t = this.targets[i];
    const k = g * MAX_CALLS + i;
    this.gAct[k] = STARTING;
    const act = t.clients.call(t.population, this.gClient[g] % t.clientsCount, g * MAX_CALLS + i, t.propagate ? this.gDeadline[g] : Infinity);
    if (this.gAct[k] === STARTING) {
      this.gAct[k] = act;
      this.gGen[k] = t.actions.gen[act];
    }
  }

  /** The job hears the outcome; calls still out are cancelled. */
  private settle(g: number, ok: boolean): void {
    const inst = this.gInst[g]!, job = this.gJob[g], token = this.gToken[g];
    this.release(g);
    inst.callsDone(job, token, ok);
  }

  private release(g: number): void {
    for (let i = 0; i < this.n; i++) {
      const k = g * MAX_CALLS + i;
      const act = this.gAct[k];
      this.gAct[k] = NONE;
      if (act >= 0) this.targets[i].clients.cancel(act, this.gGen[k]);
    }
    this.jobs(this.gInst[g]!)[this.gJob[g]] = -1;
    this.gInst[g] = undefined;
    this.gLife[g] = 0; // no use (lives count from 1)
    this.free.push(g);
  }

  private jobs(inst: CallingInstance): Int32Array {
    let a = this.groupOf.get(inst);
    if (a === undefined) this.groupOf.set(inst, (a = new Int32Array(inst.maxSlots).fill(-1)));
    return a;
  }

  /** Caller instances are numbered in the order they first call (deterministic: the run's event order). */
  private client(inst: CallingInstance): number {
    let c = this.clientOf.get(inst);
    if (c === undefined) this.clientOf.set(inst, (c = this.clientOf.size));
    return c;
  }
}
