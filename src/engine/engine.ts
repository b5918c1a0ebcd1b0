/**
 * The simulation kernel: a clock, the pending events and a loop that runs them in
 * (time, seq) order up to a horizon. Like SimPy's core it knows nothing of clients,
 * retries or servers; components register a handler per event kind and schedule events
 * that carry two integers for them.
 *
 * Pending events live in a heap, plus optional FIFO lanes for streams of events that come
 * due in scheduling order (constant delays). Both share one seq counter, so the merged
 * order is the (time, seq) order whichever structure held an event.
 */
import { EventQueue } from './event-queue.js';
import { FifoLane } from './fifo-lane.js';

export type Handler = (ref: number, aux: number) => void;

export class Engine {
  now = 0;
  eventsProcessed = 0;
  private seq = 0;
  private readonly queue = new EventQueue();
  private readonly lanes: FifoLane[] = [];
  private readonly handlers: Handler[] = [];

  /** Registers a handler and returns the event kind that reaches it. */
  on(handler: Handler): number {
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Creates a FIFO lane for events scheduled in the order they come due (see fifo-lane.ts). */
  lane(): number {
    this.lanes.push(new FifoLane());
    return this.lanes.length - 1;
  }

  /** Schedules `kind` at absolute time `time` (never before now). */
  at(time: number, kind: number, ref = 0, aux = 0): void {
    this.queue.push(time < this.now ? this.now : time, this.seq++, kind, ref, aux);
  }

  /** Schedules `kind` after `delay` seconds. */
  after(delay: number, kind: number, ref = 0, aux = 0): void {
    this.queue.push(this.now + (delay > 0 ? delay : 0), this.seq++, kind, ref, aux);
  }

  /** Schedules `kind` after `delay` in a FIFO lane; an out-of-order event goes to the heap instead. */
  afterInLane(lane: number, delay: number, kind: number, ref = 0, aux = 0): void {
    const l = this.lanes[lane];
    const time = this.now + (delay > 0 ? delay : 0);
    if (time >= l.tailTime) l.push(time, this.seq++, kind, ref, aux);
    else this.queue.push(time, this.seq++, kind, ref, aux);
  }

  get pending(): number {
    return this.queue.size + this.lanes.reduce((n, l) => n + l.size, 0);
  }

  /**
   * Runs events with time < until, then sets the clock to `until`. `shouldStop` is polled
   * every 64k events so a caller can interrupt a long run without a per-event check.
   * Returns false when interrupted.
   */
  run(until: number, shouldStop?: () => boolean): boolean {
    const q = this.queue;
    const lanes = this.lanes;
    const nLanes = lanes.length;
    const handlers = this.handlers;
    let processed = 0;
    for (;;) {
      // The earliest of the heap's top and each lane's head, by (time, seq).
      let t = q.size > 0 ? q.peekTime() : Infinity;
      let s = q.size > 0 ? q.peekSeq() : Infinity;
      let from = -1;
      for (let i = 0; i < nLanes; i++) {
        const l = lanes[i];
        if (l.size === 0) continue;
        const lt = l.time[l.head];
        if (lt < t || (lt === t && l.seq[l.head] < s)) { t = lt; s = l.seq[l.head]; from = i; }
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
      if ((++processed & 0xffff) === 0 && shouldStop?.()) {
        this.eventsProcessed += processed;
        return false;
      }
    }
    this.eventsProcessed += processed;
    this.now = until;
    return true;
  }
}
