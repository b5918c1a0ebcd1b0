/**
 * Random early detection (RED) on one instance's queue: Floyd and Jacobson, "Random Early
 * Detection Gateways for Congestion Avoidance", IEEE/ACM Transactions on Networking 1(4),
 * 1993. A queue policy of its own because it decides at arrival, on an average, where every
 * other policy of the instance decides on the queue as it is now (the bound, CoDel's age,
 * the shed stage's threshold): it refuses a few arrivals early and at random while the
 * queue stays long, so the queue is kept short on average without waiting for it to fill.
 *
 * The algorithm is the paper's (its Figure 2, with the spacing of drops of its §7):
 * - at each arrival, avg <- (1 - w) avg + w q when the queue is not empty; when it is empty,
 *   avg <- (1 - w)^m avg, m = idle time / s: the arrivals that could have been served while
 *   the queue stood empty, each of which would have pulled the average toward 0. s, the
 *   paper's "typical transmission time", is here the time between departures of a busy
 *   instance (mean service time / slots). The idle time is counted once: from when the queue
 *   last emptied or the last arrival, whichever is later (an arrival that takes a free slot
 *   leaves the queue empty, and must not be decayed for the same idle time again);
 * - avg < minThreshold: let in, count <- 0;
 * - avg >= maxThreshold: dropped, count <- 0;
 * - between: pb = maxP (avg - min) / (max - min), pa = pb / (1 - count pb) (1 once
 *   count pb >= 1); dropped with probability pa (count <- 0), else let in (count + 1).
 *
 * count is the number of arrivals let in since the last drop (or since the average rose
 * above minThreshold). With it, the number of arrivals from one drop to the next is uniform
 * on 1 .. 1/pb rather than geometric (the paper's §7: drops evenly spaced, not clustered),
 * so at a constant average the share dropped is 2 pb / (1 + pb) when 1/pb is a whole
 * number, not pb. (Figure 2 read literally, count set to 0 at a drop and incremented before
 * use, would make the interval uniform on 1 .. 1/pb - 1; §7's analysis and the text's
 * "packets since the last marked packet" are what is built.) The paper's "gentle" variant
 * and byte mode are not: a request is the unit.
 */
import type { Rng } from '../../engine/rng.js';

export interface RedOptions {
  minThreshold: number;
  maxThreshold: number;
  maxP: number;
  weight: number;
  /** s: the time between departures of a busy instance (mean service time / slots), for the idle decay. */
  departureS: number;
}

export class RedDropper {
  /** The average queue length (attempts). */
  avg = 0;
  /** Arrivals let in since the last drop, or since the average rose above minThreshold. */
  private count = 0;
  /** When the average was last updated (the idle decay counts from here or from the queue's emptying). */
  private lastT = 0;
  private readonly span: number;
  private readonly logKeep: number;

  constructor(private readonly o: RedOptions, private readonly rng: Rng) {
    this.span = o.maxThreshold - o.minThreshold;
    this.logKeep = Math.log1p(-Math.min(o.weight, 1 - 1e-12));
  }

  /**
   * An attempt arrives at a queue of length q (emptied last at `emptySince`, when q is 0):
   * true when RED drops it.
   */
  drop(q: number, now: number, emptySince: number): boolean {
    const o = this.o;
    if (q > 0) this.avg += o.weight * (q - this.avg);
    else {
      const idle = now - Math.max(emptySince, this.lastT);
      if (idle > 0 && this.avg > 0) this.avg *= o.departureS > 0 ? Math.exp((idle / o.departureS) * this.logKeep) : 0;
    }
    this.lastT = now;
    const avg = this.avg;
    if (avg < o.minThreshold) {
      this.count = 0;
      return false;
    }
    if (avg >= o.maxThreshold) {
      this.count = 0;
      return true;
    }
    const pb = (o.maxP * (avg - o.minThreshold)) / this.span;
    const spaced = this.count * pb;
    const pa = spaced >= 1 ? 1 : pb / (1 - spaced);
    if (this.rng() < pa) {
      this.count = 0;
      return true;
    }
    this.count++;
    return false;
  }

  /** The queue lost everything (a crash): the average starts over, as in a restarted process. */
  reset(now: number): void {
    this.avg = 0;
    this.count = 0;
    this.lastT = now;
  }
}
