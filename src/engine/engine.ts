/**
 * The simulation kernel: a clock, the pending events and a loop that runs them in
 * (time, seq) order up to a horizon. Like SimPy's core it knows nothing of clients,
 * retries or servers; components register a handler per event kind and schedule events
 * that carry two integers for them.
 *
 * Pending events live in a heap, plus optional FIFO lanes for streams of events that come
 * due in scheduling order (constant delays). Both share one seq counter, so the merged
 * order is the (time, seq) order whichever structure held an event.
 *
 * A run has a budget (budget.ts): the memory its growable structures may hold, metered by
 * `memory`, and the events it may run at one simulated instant. Past either, the run stops
 * with a RunBudgetExceeded error.
 */
// For its effect: a larger inlining budget for the hot code (see inlining.ts).
import './inlining.js';
import { EventQueue } from './event-queue.js';
import { FifoLane } from './fifo-lane.js';
import { MemoryMeter, RunBudgetExceeded } from './budget.js';

export type Handler = (ref: number, aux: number) => void;

/** How often (in events) the run loop polls `shouldStop` and checks that the clock moves. */
const POLL_EVERY = 0x10000;

export interface EngineOptions {
  /** Bytes the run's growable state may hold (Infinity = no limit). */
  memoryBytes?: number;
  /**
   * Events the run may process without its clock moving. Past it, the model is in a loop of
   * zero-delay events that would never reach the horizon. Checked every 65,536 events.
   */
  eventsAtOneInstant?: number;
}

/**
 * An event at NaN would sort before everything (every comparison with NaN is false) and end
 * the run at once as if it had reached its horizon, and a delay of NaN would silently be 0:
 * either is a model's arithmetic gone wrong (a 0/0), so it stops the run loudly instead.
 */
function notATime(kind: number): Error {
  return new Error(`an event of kind ${kind} was scheduled at NaN: a bug in the model's arithmetic (a 0/0), not in the scenario`);
}

/** Returned by afterInLane for an event that went to the heap: it cannot be cancelled. */
export const NOT_CANCELLABLE = -1;

export class Engine {
  now = 0;
  eventsProcessed = 0;
  readonly memory: MemoryMeter;
  private readonly eventsAtOneInstant: number;
  private seq = 0;
  private readonly queue: EventQueue;
  private readonly lanes: FifoLane[] = [];
  /** The time of each lane's head (Infinity when empty), kept by the lanes: what the run loop compares. */
  private heads = new Float64Array(8).fill(Infinity);
  private readonly handlers: Handler[] = [];
  /** Lanes shared by key (laneFor): one lane for every stream of the same constant delay. */
  private readonly sharedLanes = new Map<number, number>();

  constructor(opts: EngineOptions = {}) {
    this.memory = new MemoryMeter(opts.memoryBytes ?? Infinity);
    this.eventsAtOneInstant = opts.eventsAtOneInstant ?? Infinity;
    this.queue = new EventQueue(1024, this.memory);
  }

  /** Registers a handler and returns the event kind that reaches it. */
  on(handler: Handler): number {
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Creates a FIFO lane for events scheduled in the order they come due (see fifo-lane.ts). */
  lane(): number {
    const index = this.lanes.length;
    if (index === this.heads.length) {
      const heads = new Float64Array(2 * index).fill(Infinity);
      heads.set(this.heads);
      this.heads = heads;
      for (const l of this.lanes) l.heads = heads;
    }
    this.lanes.push(new FifoLane(1024, this.memory, this.heads, index));
    return index;
  }

  /**
   * The lane for events scheduled after the constant delay `delay`, shared with every other
   * stream of that same delay (their events come due in scheduling order too, since the
   * clock only moves forward). The run loop looks at each lane's head for every event, so
   * fewer lanes is a cheaper loop: a scenario with a dozen retry layers has a handful of
   * distinct timeouts. The order events run in is (time, seq) whatever holds them.
   */
  laneFor(delay: number): number {
    let lane = this.sharedLanes.get(delay);
    if (lane === undefined) {
      lane = this.lane();
      this.sharedLanes.set(delay, lane);
    }
    return lane;
  }

  /** Schedules `kind` at absolute time `time` (never before now). */
  at(time: number, kind: number, ref = 0, aux = 0): void {
    if (time !== time) throw notATime(kind);
    this.queue.push(time < this.now ? this.now : time, this.seq++, kind, ref, aux);
  }

  /**
   * Schedules `kind` at absolute time `time` (never before now) in a FIFO lane: for a stream
   * whose events come due in the order they are scheduled, such as a population's arrivals
   * (each drawn after the one before). An out-of-order event, or lane -1, goes to the heap.
   */
  atInLane(lane: number, time: number, kind: number, ref = 0, aux = 0): void {
    if (time !== time) throw notATime(kind);
    if (time < this.now) time = this.now;
    if (lane >= 0 && time >= this.lanes[lane].tailTime) this.lanes[lane].push(time, this.seq++, kind, ref, aux);
    else this.queue.push(time, this.seq++, kind, ref, aux);
  }

  /** Schedules `kind` after `delay` seconds. */
  after(delay: number, kind: number, ref = 0, aux = 0): void {
    if (delay !== delay) throw notATime(kind);
    this.queue.push(this.now + (delay > 0 ? delay : 0), this.seq++, kind, ref, aux);
  }

  /**
   * Schedules `kind` after `delay` in a FIFO lane and returns a handle for cancelInLane; an
   * out-of-order event goes to the heap instead, and the handle is NOT_CANCELLABLE.
   */
  afterInLane(lane: number, delay: number, kind: number, ref = 0, aux = 0): number {
    if (delay !== delay) throw notATime(kind);
    const l = this.lanes[lane];
    const time = this.now + (delay > 0 ? delay : 0);
    if (time >= l.tailTime) return l.push(time, this.seq++, kind, ref, aux);
    this.queue.push(time, this.seq++, kind, ref, aux);
    return NOT_CANCELLABLE;
  }

  /** Cancels a lane event by its handle; a handle of an event that ran or was cancelled is ignored. */
  cancelInLane(lane: number, handle: number): void {
    if (handle !== NOT_CANCELLABLE) this.lanes[lane].cancel(handle);
  }

  get pending(): number {
    return this.queue.size + this.lanes.reduce((n, l) => n + l.live, 0);
  }

  /**
   * Runs events with time < until, then sets the clock to `until`. `shouldStop` is polled
   * every 64k events so a caller can interrupt a long run without a per-event check.
   * Returns false when interrupted; throws RunBudgetExceeded past the run's budget.
   */
  run(until: number, shouldStop?: () => boolean): boolean {
    const q = this.queue;
    const lanes = this.lanes;
    const handlers = this.handlers;
    let processed = 0;
    let lastPollTime = NaN;
    let sameInstant = 0;
    for (;;) {
      // The earliest of the heap's top and each lane's head, by (time, seq). Seqs are read
      // only on a tie in time, which is rare (an empty heap's or lane's time is Infinity,
      // never a tie). Lanes are read afresh each time: a handler may add one.
      let t = q.peekTime();
      let from = -1;
      const heads = this.heads;
      for (let i = 0, n = lanes.length; i < n; i++) {
        const lt = heads[i];
        if (lt > t) continue;
        if (lt < t) {
          t = lt;
          from = i;
        } else if (lt !== Infinity) {
          const l = lanes[i];
          if (l.seq[l.head] < (from < 0 ? q.peekSeq() : lanes[from].seq[lanes[from].head])) from = i;
        }
      }
      if (!(t < until)) break;
      let kind: number, ref: number, aux: number;
      if (from < 0) {
        q.pop();
        kind = q.poppedKind; ref = q.poppedRef; aux = q.poppedAux;
      } else {
        const l = lanes[from];
        const h = l.head;
        kind = l.kind[h]; ref = l.ref[h]; aux = l.aux[h];
        l.shift();
      }
      this.now = t;
      handlers[kind](ref, aux);
      if ((++processed & (POLL_EVERY - 1)) === 0) {
        if (this.now === lastPollTime) {
          sameInstant += POLL_EVERY;
          if (sameInstant >= this.eventsAtOneInstant) {
            this.eventsProcessed += processed;
            throw new RunBudgetExceeded(
              `${sameInstant.toLocaleString('en-US')} events ran at one instant without the clock moving, ` +
                `over the budget of ${this.eventsAtOneInstant.toLocaleString('en-US')}: the model is in a loop of zero-delay events ` +
                '(such as retries with no backoff against failures answered at once) that would never reach the horizon',
            );
          }
        } else {
          lastPollTime = this.now;
          sameInstant = 0;
        }
        if (shouldStop?.()) {
          this.eventsProcessed += processed;
          return false;
        }
      }
    }
    this.eventsProcessed += processed;
    this.now = until;
    return true;
  }
}
