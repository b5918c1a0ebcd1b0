/**
 * The simulation kernel: a clock, the pending events and a loop that runs them in
 * (time, seq) order up to a horizon. Like SimPy's core it knows nothing of clients,
 * retries or servers; components register a handler per event kind and schedule events
 * that carry two integers for them.
 */
import { EventQueue } from './event-queue.js';

export type Handler = (ref: number, aux: number) => void;

export class Engine {
  now = 0;
  eventsProcessed = 0;
  private readonly queue = new EventQueue();
  private readonly handlers: Handler[] = [];

  /** Registers a handler and returns the event kind that reaches it. */
  on(handler: Handler): number {
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Schedules `kind` at absolute time `time` (never before now). */
  at(time: number, kind: number, ref = 0, aux = 0): void {
    this.queue.push(time < this.now ? this.now : time, kind, ref, aux);
  }

  /** Schedules `kind` after `delay` seconds. */
  after(delay: number, kind: number, ref = 0, aux = 0): void {
    this.queue.push(this.now + delay, kind, ref, aux);
  }

  get pending(): number {
    return this.queue.size;
  }

  /**
   * Runs events with time < until, then sets the clock to `until`. `shouldStop` is polled
   * every 64k events so a caller can interrupt a long run without a per-event check.
   */
  run(until: number, shouldStop?: () => boolean): boolean {
    const q = this.queue;
    const handlers = this.handlers;
    let processed = 0;
    while (q.size > 0 && q.peekTime() < until) {
      q.pop();
      this.now = q.poppedTime;
      handlers[q.poppedKind](q.poppedRef, q.poppedAux);
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
