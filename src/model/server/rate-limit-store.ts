/**
 * The shared store a rate-limit stage checks (Redis in story 001) as a server with a
 * capacity, not only a round trip: story 001 asks to monitor "the latency of the checker"
 * because the store must not become the bottleneck. A store that serves `capacity` checks
 * per second, one at a time in arrival order (Redis runs one command, or one Lua script, at
 * a time), makes a check that finds it busy wait; past the instance's timeout the check is a
 * store failure, handled as an outage is (onStoreFailure).
 *
 * Model: a single server, first come first served, with a deterministic service time
 * 1 / capacity (a Redis command or script of fixed shape costs about the same each time);
 * with the Poisson arrivals of an open population it is an M/D/1 queue, whose mean wait is
 * Pollaczek-Khinchine's rho / (2 mu (1 - rho)). As service is deterministic and FIFO, a
 * check's wait is known when it arrives (what came later never overtakes it), so the queue
 * is one number: when the store is next free. Start times never decrease, so the limiter
 * runs at the store's time and stays atomic and in order, as Redis makes it.
 *
 * The store is rarely this limiter's alone: `load` other operations a second (other limiters,
 * other services; Poisson arrivals, one operation each, with the same timeout) share its
 * queue. They are generated lazily, in arrival order, up to each check's arrival, so they
 * cost no events; `load` 0 is a store for this limiter alone.
 *
 * A check that would be answered after the timeout is never run at the store: the instance
 * closes the connection at the timeout, before the store reads the command (Redis drops a
 * closed client's unread commands). It neither takes the store's time nor moves a counter,
 * so the wait is bounded by the timeout (an M/D/1 queue with impatient customers).
 */

import type { StoreTotals } from './rate-limit-report.js';

export class SharedStore implements StoreTotals {
  /** Service time of one check (s): 1 / capacity, 0 for a store without a capacity. */
  readonly service: number;
  /** When the store is next free. */
  private freeAt = -Infinity;
  checks = 0;
  waitS = 0;
  waitMaxS = 0;
  timeouts = 0;

  /**
   * @param capacity checks per second, or undefined for a store that never queues
   * @param latency the round trip (s), paid by every answer
   * @param timeout how long an instance waits for the answer (s); Infinity: for ever
   */
  /** The other operations' next arrival (Infinity without them), and their stream. */
  private nextOther: number;
  private readonly meanGap: number;
  /** Other operations run, and timed out (not counted in checks, waits or timeouts). */
  othersRun = 0;
  othersTimedOut = 0;

  /**
   * @param capacity checks per second, or undefined for a store that never queues
   * @param latency the round trip (s), paid by every answer
   * @param timeout how long an instance waits for the answer (s); Infinity: for ever
   * @param load other operations per second sharing the store's queue (0: none)
   * @param rng the stream their arrivals are drawn from
   */
  constructor(capacity: number | undefined, readonly latency: number, readonly timeout: number, load = 0, private readonly rng: () => number = Math.random) {
    this.service = capacity === undefined ? 0 : 1 / capacity;
    this.meanGap = load > 0 && capacity !== undefined ? 1 / load : Infinity;
    this.nextOther = this.meanGap === Infinity ? Infinity : this.gap();
  }

  private gap(): number {
    return -Math.log(1 - this.rng()) * this.meanGap;
  }

  /** Runs (or times out) the other operations that arrived up to `now`, in order. */
  private others(now: number): void {
    while (this.nextOther <= now) {
      const t = this.nextOther;
      const start = this.freeAt > t ? this.freeAt : t;
      if (this.latency + (start - t) + this.service > this.timeout) this.othersTimedOut++;
      else {
        this.freeAt = start + this.service;
        this.othersRun++;
      }
      this.nextOther = t + this.gap();
    }
  }

  /**
   * A check sent at `now`: the time it runs at the store, or -1 when it times out (and never
   * runs). Its answer reaches the instance answerDelay(start, now) after now.
   */
  admit(now: number): number {
    this.others(now);
    const start = this.freeAt > now ? this.freeAt : now;
    const wait = start - now;
    if (this.latency + wait + this.service > this.timeout) {
      this.timeouts++;
      return -1;
    }
    this.freeAt = start + this.service;
    this.checks++;
    this.waitS += wait;
    if (wait > this.waitMaxS) this.waitMaxS = wait;
    return start;
  }

  /** From sending a check at `now` to its answer, for a check that runs at `start`. */
  answerDelay(start: number, now: number): number {
    return this.latency + (start - now) + this.service;
  }
}
