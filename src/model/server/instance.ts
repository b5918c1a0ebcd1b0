/**
 * One server instance: N concurrency slots (slots.ts) in front of a queue (bounded or not,
 * FIFO or LIFO, or fair queueing), with the queue's policies: CoDel and adaptive LIFO when it
 * stands, random early detection at arrival, and dropping abandoned entries unserved when
 * `dropAbandoned` says the client's cancellation reaches the server.
 *
 * The instance holds attempts in its own queue (attempt-queue.ts) and slot table, so a
 * client that gives up can drop its record at once: in a storm the queue holds millions of
 * abandoned attempts at 12 bytes each. A queue entry is the attempt's id and arrival time;
 * the attempt record says where it waits (its queue and entry index), and the client
 * clears that when it stops waiting, so an entry whose attempt does not point back at it
 * is one nobody waits for. A busy slot holds (id, generation).
 *
 * This file is the queue's side and where the two halves meet: a request that finds a slot
 * free and nobody ahead starts at once, a slot that comes free takes the next queued one
 * (`pump`). A crash (lifecycle.ts) loses both what the slots serve and what the queue holds;
 * a pause stops the slots while requests still queue.
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { Attempts } from '../records.js';
import type { ServiceFaults } from './service-faults.js';
import { OUTCOME_QUEUE_FULL, OUTCOME_SHED, OUTCOME_RESET } from '../outcomes.js';
import { AttemptQueue } from './attempt-queue.js';
import { FairQueue } from './fair-queue.js';
import type { InstanceOptions } from './instance-options.js';
import { Slots, NOBODY, type CompletionListener, type Respond } from './slots.js';

export class Instance {
  /** The instance's slots: what it serves, its pause, what it served and wasted. */
  private readonly slots: Slots;
  /** The size of the slot table: setSlots never goes above it. */
  readonly maxSlots: number;
  /** Attempts waiting for a slot (FIFO pops the oldest, LIFO the newest). */
  private readonly line: AttemptQueue | FairQueue;
  /** This queue's number, for Attempts.waitingIn. */
  private readonly queueNo: number;
  /** Last time the queue was empty (CoDel: a queue not empty for a whole interval is standing). */
  private lastEmptyT = 0;
  /** Down after a crash: holds nothing and starts nothing until it restarts (the balancer's health check, balancer.ts). */
  down = false;

  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    private readonly opts: InstanceOptions,
    private readonly respond: Respond,
  ) {
    this.slots = new Slots(engine, attempts, rec, opts, respond, () => this.pump());
    this.maxSlots = this.slots.maxSlots;
    // Chosen once: the one-line queue's path stays as it is when nobody asks for fairness.
    this.line = opts.fair ? new FairQueue(opts.fair, opts.routes.length > 1, engine.memory) : new AttemptQueue(opts.routes.length > 1, engine.memory);
    this.queueNo = attempts.newQueue();
  }

  /** Adds a listener of completed jobs; returns what removes it. */
  listenToCompletions(listener: CompletionListener): () => void {
    return this.slots.listenToCompletions(listener);
  }

  /** Attempts in service or queued: what admission control and least-outstanding balancing look at. */
  get outstanding(): number {
    return this.slots.busy + this.line.length;
  }

  get queued(): number {
    return this.line.length;
  }

  /** How long the oldest queued attempt has waited (0 with an empty queue): what latency-based shedding reads. */
  oldestWait(now: number): number {
    return this.line.length > 0 ? now - this.line.frontT : 0;
  }

  get busySlots(): number {
    return this.slots.busy;
  }

  get slotCount(): number {
    return this.slots.count;
  }

  get served(): number {
    return this.slots.served;
  }

  get queueWaitS(): number {
    return this.slots.queueWaitS;
  }

  get wastedWorkS(): number {
    return this.slots.wastedWorkS;
  }

  /** Partial failures (error rate, slowdown) while a fault sets them (src/model/faults.ts); undefined when none is active. */
  get faults(): ServiceFaults | undefined {
    return this.slots.faults;
  }

  set faults(f: ServiceFaults | undefined) {
    this.slots.faults = f;
  }

  /** An attempt that passed the pipeline reaches the queue or a slot. */
  arrive(a: number, gen: number, route: number): void {
    const now = this.engine.now;
    const red = this.opts.red;
    if (red !== undefined && red.drop(this.line.length, now, this.lastEmptyT)) {
      // Dropped early, before the queue is full: an overload refusal like CoDel's and the shed stage's.
      this.respond(a, OUTCOME_SHED);
      return;
    }
    if (this.line.length === 0 && this.slots.hasRoom) {
      this.slots.begin(a, gen, now, now, route, 0);
    } else if (this.line.length < this.opts.queueCapacity) {
      this.enqueue(a, now, route);
      this.rec.queueChanged(now, +1);
    } else {
      this.respond(a, OUTCOME_QUEUE_FULL);
    }
  }

  setDependencyDown(down: boolean): void {
    this.slots.dependencyDown = down;
  }

  /** Changes the number of slots; attempts in service above the new count finish normally. */
  setSlots(n: number): void {
    const slots = this.slots;
    if (n > this.maxSlots) n = this.maxSlots;
    if (n === slots.count) return;
    this.rec.slotsChanged(this.engine.now, n - slots.count);
    slots.count = n;
    this.pump();
  }

  /** Starts queued attempts while slots are free. */
  private pump(): void {
    const line = this.line;
    const slots = this.slots;
    if (line.length === 0 || !slots.hasRoom) return;
    const now = this.engine.now;
    let taken = 0;
    let lifo = this.opts.lifo;
    const codel = this.opts.codel;
    if (codel) {
      // Standing queue: not empty for a whole interval. Then the age limit is the target and,
      // for adaptive LIFO, the newest attempt (whose caller is surely still waiting) goes first.
      const standing = now - this.lastEmptyT > codel.interval;
      const maxAge = standing ? codel.target : codel.interval;
      if (standing && codel.adaptiveLifo) lifo = true;
      while (line.length > 0 && now - line.frontT > maxAge) {
        const a = this.dequeue(false);
        taken++;
        if (a !== NOBODY) this.respond(a, OUTCOME_SHED);
      }
    }
    while (line.length > 0 && slots.busy < slots.count) {
      const a = this.dequeue(lifo);
      taken++;
      // A cancelled request leaves the queue without costing a slot.
      if (a === NOBODY && this.opts.dropAbandoned) continue;
      slots.begin(a, a === NOBODY ? 0 : this.attempts.gen[a], line.poppedT, now, line.poppedRoute, line.length);
    }
    if (line.length === 0) this.lastEmptyT = now;
    this.rec.queueChanged(now, -taken);
  }

  // ── Crashes and pauses (lifecycle.ts) ──────────────────────────────────────

  /**
   * The process dies: every request in service and every queued one is lost. Callers still
   * waiting see a connection reset when `reset` (else nothing: they wait for their timeout).
   * The elapsed part of the lost services counts as wasted work. Returns the attempts lost.
   */
  crash(reset: boolean): number {
    const now = this.engine.now;
    let lost = this.slots.crash(reset);
    // The queue, oldest first: an entry whose client still waits gets the reset.
    const queued = this.line.length;
    while (this.line.length > 0) {
      const a = this.dequeue(false);
      lost++;
      if (reset && a !== NOBODY) this.respond(a, OUTCOME_RESET);
    }
    this.rec.queueChanged(now, -queued);
    this.lastEmptyT = now;
    this.opts.red?.reset(now);
    this.slots.forgetPause();
    return lost;
  }

  get isPaused(): boolean {
    return this.slots.isPaused;
  }

  /** Stop-the-world: no progress and no new starts; requests still queue. */
  pause(): void {
    if (this.slots.isPaused) return;
    this.slots.pause();
  }

  /** The pause is over: services in progress carry on for what they had left, and the queue moves. */
  resume(): void {
    if (!this.slots.isPaused) return;
    this.slots.resume();
    this.pump();
  }

  private enqueue(a: number, now: number, route: number): void {
    if (this.line.length === 0) this.lastEmptyT = now;
    this.attempts.waitingIn[a] = this.queueNo;
    this.attempts.waitingAt[a] = this.line.push(a, now, route);
  }

  /**
   * Takes the oldest (or, LIFO, the newest) entry; its arrival time and route stay in
   * line.popped*. Returns the attempt if its client still waits for it, else NOBODY.
   */
  private dequeue(newest: boolean): number {
    const line = this.line;
    if (newest) line.popBack();
    else line.popFront();
    const a = line.poppedId;
    const at = this.attempts;
    if (at.waitingIn[a] !== this.queueNo || at.waitingAt[a] !== line.poppedIndex) return NOBODY;
    at.waitingIn[a] = -1;
    return a;
  }
}
