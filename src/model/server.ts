/**
 * The server: N concurrency slots in front of a FIFO queue (bounded or not), serving each
 * attempt for a drawn service time. While its dependency is down, an attempt that reaches
 * a slot fails fast. Work finished for an attempt whose client already stopped waiting is
 * wasted: the server cannot know, and still pays for it.
 */
import type { Engine } from '../engine/engine.js';
import type { Recorder } from './recorder.js';
import { AT_SERVER, CLIENT_WAITING, OUTCOME_OK, type Attempts } from './records.js';
import { FAILURE_CAUSES } from './series.js';

export const OUTCOME_DEPENDENCY = 1 + FAILURE_CAUSES.indexOf('dependency');
export const OUTCOME_QUEUE_FULL = 1 + FAILURE_CAUSES.indexOf('queue-full');

export interface ServerOptions {
  slots: number;
  /** Queue capacity in attempts (Infinity = unbounded). */
  queueCapacity: number;
  serviceTime: () => number;
  failFastTime: number;
}

/** Called when the server answers an attempt whose client is still waiting. */
export type AnswerSink = (attempt: number, outcome: number) => void;

export class Server {
  private slots: number;
  private busy = 0;
  private dependencyDown = false;
  // FIFO ring of attempt ids; grows by doubling, so an unbounded queue costs 4 bytes per waiting attempt.
  private ring = new Int32Array(1024);
  private head = 0;
  private length = 0;
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
    this.kDone = engine.on((a) => this.done(a));
    rec.setLevel(rec.slots, 0, this.slots);
  }

  /** An attempt reaches the server. */
  arrive(a: number): void {
    const now = this.engine.now;
    this.attempts.arrivedT[a] = now;
    if (this.length === 0 && this.busy < this.slots) {
      this.begin(a, now);
    } else if (this.length < this.opts.queueCapacity) {
      this.enqueue(a);
      this.rec.setLevel(this.rec.queue, now, this.length);
    } else {
      this.attempts.work[a] = 0;
      this.finish(a, OUTCOME_QUEUE_FULL);
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

  private begin(a: number, now: number): void {
    const at = this.attempts;
    this.served++;
    this.queueWaitS += now - at.arrivedT[a];
    const failing = this.dependencyDown;
    const work = failing ? this.opts.failFastTime : this.opts.serviceTime();
    at.work[a] = work;
    at.outcome[a] = failing ? OUTCOME_DEPENDENCY : OUTCOME_OK;
    if (work <= 0) {
      // Failing (or finishing) in no time holds no slot: answer now.
      this.finish(a, at.outcome[a]);
      return;
    }
    this.busy++;
    this.rec.setLevel(this.rec.busy, now, this.busy);
    this.engine.after(work, this.kDone, a);
  }

  private done(a: number): void {
    this.busy--;
    this.rec.setLevel(this.rec.busy, this.engine.now, this.busy);
    this.finish(a, this.attempts.outcome[a]);
    this.pump();
  }

  /** The server is through with an attempt: answer it, or count its work as wasted. */
  private finish(a: number, outcome: number): void {
    const at = this.attempts;
    const flags = at.flags[a] & ~AT_SERVER;
    at.flags[a] = flags;
    const work = at.work[a];
    const waiting = (flags & CLIENT_WAITING) !== 0;
    if (work > 0) this.rec.workDone(this.engine.now, work, !waiting);
    if (waiting) this.answer(a, outcome);
    else {
      this.wastedWorkS += work;
      at.release(a);
    }
  }

  /** Starts queued attempts while slots are free. */
  private pump(): void {
    if (this.length === 0 || this.busy >= this.slots) return;
    const now = this.engine.now;
    while (this.length > 0 && this.busy < this.slots) this.begin(this.dequeue(), now);
    this.rec.setLevel(this.rec.queue, now, this.length);
  }

  private enqueue(a: number): void {
    if (this.length === this.ring.length) {
      const bigger = new Int32Array(this.ring.length * 2);
      for (let i = 0; i < this.length; i++) bigger[i] = this.ring[(this.head + i) & (this.ring.length - 1)];
      this.ring = bigger;
      this.head = 0;
    }
    this.ring[(this.head + this.length) & (this.ring.length - 1)] = a;
    this.length++;
  }

  private dequeue(): number {
    const a = this.ring[this.head];
    this.head = (this.head + 1) & (this.ring.length - 1);
    this.length--;
    return a;
  }
}
