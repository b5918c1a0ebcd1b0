/**
 * The server: N concurrency slots in front of a FIFO queue (bounded or not), serving each
 * attempt for a drawn service time. While its dependency is down, an attempt that reaches
 * a slot fails fast. Work finished for an attempt whose client already stopped waiting is
 * wasted: the server cannot know, and still pays for it.
 *
 * The server holds attempts by (id, generation) and keeps what it needs in its own queue
 * and slot table, so a client that gives up can drop its record at once: in a storm the
 * queue holds millions of abandoned attempts at 16 bytes each.
 */
import type { Engine } from '../engine/engine.js';
import type { Recorder } from './recorder.js';
import { ATTEMPT_INVALID, type Attempts } from './records.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_QUEUE_FULL, OUTCOME_INVALID } from './outcomes.js';

export interface ServerOptions {
  slots: number;
  /** Queue capacity in attempts (Infinity = unbounded). */
  queueCapacity: number;
  serviceTime: () => number;
  failFastTime: number;
}

/** Called when the server answers an attempt whose client is still waiting; retryAfter is NaN when the answer has none. */
export type AnswerSink = (attempt: number, outcome: number, retryAfter: number) => void;

export class Server {
  private slots: number;
  private busy = 0;
  private dependencyDown = false;
  // FIFO ring of (attempt id, generation, arrival time); grows by doubling.
  private ringId = new Int32Array(1024);
  private ringGen = new Int32Array(1024);
  private ringT = new Float64Array(1024);
  private head = 0;
  private length = 0;
  // Slot table: what each busy slot is doing. Sized for the full slot count.
  private readonly jobId: Int32Array;
  private readonly jobGen: Int32Array;
  private readonly jobWork: Float64Array;
  private readonly jobOutcome: Int32Array;
  private readonly freeJobs: Int32Array;
  private freeTop: number;
  private readonly kDone: number;
  served = 0;
  queueWaitS = 0;
  wastedWorkS = 0;

  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    private readonly opts: ServerOptions,
    private readonly answer: AnswerSink,
  ) {
    this.slots = opts.slots;
    this.jobId = new Int32Array(opts.slots);
    this.jobGen = new Int32Array(opts.slots);
    this.jobWork = new Float64Array(opts.slots);
    this.jobOutcome = new Int32Array(opts.slots);
    this.freeJobs = Int32Array.from({ length: opts.slots }, (_, i) => opts.slots - 1 - i);
    this.freeTop = opts.slots;
    this.kDone = engine.on((j) => this.done(j));
    rec.setLevel(rec.slots, 0, this.slots);
  }

  /** An attempt reaches the server. */
  arrive(a: number): void {
    const now = this.engine.now;
    const gen = this.attempts.gen[a];
    if ((this.attempts.flags[a] & ATTEMPT_INVALID) !== 0) {
      // Validation fails before any work: a fast 400 that will never turn into a 200.
      this.answer(a, OUTCOME_INVALID, NaN);
    } else if (this.length === 0 && this.busy < this.slots) {
      this.begin(a, gen, now, now);
    } else if (this.length < this.opts.queueCapacity) {
      this.enqueue(a, gen, now);
      this.rec.setLevel(this.rec.queue, now, this.length);
    } else {
      this.answer(a, OUTCOME_QUEUE_FULL, NaN);
    }
  }

  setDependencyDown(down: boolean): void {
    this.dependencyDown = down;
  }

  /** Changes the number of slots; attempts in service above the new count finish normally. */
  setSlots(n: number): void {
    this.slots = n;
    this.rec.setLevel(this.rec.slots, this.engine.now, n);
    this.pump();
  }

  private begin(a: number, gen: number, arrivedT: number, now: number): void {
    this.served++;
    this.queueWaitS += now - arrivedT;
    const failing = this.dependencyDown;
    const work = failing ? this.opts.failFastTime : this.opts.serviceTime();
    const outcome = failing ? OUTCOME_DEPENDENCY : OUTCOME_OK;
    if (work <= 0) {
      // Failing (or finishing) in no time holds no slot: answer now.
      this.finish(a, gen, outcome, 0);
      return;
    }
    const j = this.freeJobs[--this.freeTop];
    this.jobId[j] = a;
    this.jobGen[j] = gen;
    this.jobWork[j] = work;
    this.jobOutcome[j] = outcome;
    this.busy++;
    this.rec.setLevel(this.rec.busy, now, this.busy);
    this.engine.after(work, this.kDone, j);
  }

  private done(j: number): void {
    this.busy--;
    this.freeJobs[this.freeTop++] = j;
    this.rec.setLevel(this.rec.busy, this.engine.now, this.busy);
    this.finish(this.jobId[j], this.jobGen[j], this.jobOutcome[j], this.jobWork[j]);
    this.pump();
  }

  /** The server is through with an attempt: answer it, or count its work as wasted. */
  private finish(a: number, gen: number, outcome: number, work: number): void {
    const awaited = this.attempts.isAwaited(a, gen);
    if (work > 0) this.rec.workDone(this.engine.now, work, !awaited);
    if (awaited) this.answer(a, outcome, NaN);
    else this.wastedWorkS += work;
  }

  /** Starts queued attempts while slots are free. */
  private pump(): void {
    if (this.length === 0 || this.busy >= this.slots) return;
    const now = this.engine.now;
    const mask = this.ringId.length - 1;
    while (this.length > 0 && this.busy < this.slots) {
      const h = this.head;
      this.head = (h + 1) & mask;
      this.length--;
      this.begin(this.ringId[h], this.ringGen[h], this.ringT[h], now);
    }
    this.rec.setLevel(this.rec.queue, now, this.length);
  }

  private enqueue(a: number, gen: number, now: number): void {
    if (this.length === this.ringId.length) this.growRing();
    const i = (this.head + this.length) & (this.ringId.length - 1);
    this.ringId[i] = a;
    this.ringGen[i] = gen;
    this.ringT[i] = now;
    this.length++;
  }

  private growRing(): void {
    const cap = this.ringId.length * 2;
    const mask = this.ringId.length - 1;
    const id = new Int32Array(cap), gen = new Int32Array(cap), t = new Float64Array(cap);
    for (let k = 0; k < this.length; k++) {
      const i = (this.head + k) & mask;
      id[k] = this.ringId[i]; gen[k] = this.ringGen[i]; t[k] = this.ringT[i];
    }
    this.ringId = id; this.ringGen = gen; this.ringT = t;
    this.head = 0;
  }
}
