/**
 * A server instance's queue when the server schedules fairly (server.fairQueue): one FIFO
 * line per flow, strict priority classes between flows, and deficit round robin between
 * the flows of a class.
 *
 * A flow is a (class, key) pair: the key is whose turn it is (a population, a route, an
 * API-key tier), the class its priority. A free slot takes from the highest class that has
 * anything queued; within it, deficit round robin (Shreedhar and Varghese, "Efficient Fair
 * Queuing Using Deficit Round Robin", SIGCOMM 1995) gives each flow a quantum of its weight
 * per round and serves it while its deficit covers a request. A request costs 1 whatever
 * its service time, which the server only learns when it starts the work (so this is
 * request-count fairness, what request schedulers in front of a service can do; byte or
 * work fairness needs sizes known in advance). With unit costs DRR is weighted round robin,
 * within one request per flow of the weighted fair queueing of Demers, Keshav and Shenker.
 *
 * It keeps AttemptQueue's surface (push, popFront, popBack, popped*, frontT, length), so
 * the instance selects one or the other when it is built and its loop stays as it is:
 * popFront serves the next flow's oldest entry, popBack its newest (LIFO within a flow).
 * An entry's index is its index in its flow's line times the number of flows, plus the
 * flow: unique within the instance, as the instance's staleness check needs.
 */
import { UNMETERED, type MemoryMeter } from '../../engine/budget.js';
import { AttemptQueue } from './attempt-queue.js';

export interface FairQueueOptions {
  /** Number of keys (flows per class) and of priority classes. */
  keys: number;
  classes: number;
  /** Per key: its weight (its share of turns within a class), > 0. */
  weights: ArrayLike<number>;
  /** The key and the class of an attempt, read when it is queued. */
  keyOf: (attempt: number) => number;
  classOf: (attempt: number) => number;
}

export class FairQueue {
  private readonly lines: AttemptQueue[];
  private readonly flows: number;
  private readonly keys: number;
  /** Per flow: the quantum it gets per round (its weight over the smallest weight, so >= 1). */
  private readonly quantum: Float64Array;
  private readonly deficit: Float64Array;
  /** Per flow: whether it has had this round's quantum (it is at the head of its class's round). */
  private readonly inTurn: Uint8Array;
  /** Per class: a ring of the flows with something queued, in round order. */
  private readonly ring: Int32Array[];
  private readonly ringHead: Int32Array;
  private readonly ringSize: Int32Array;
  length = 0;

  poppedId = 0;
  poppedT = 0;
  poppedRoute = 0;
  poppedIndex = 0;

  constructor(
    private readonly opts: FairQueueOptions,
    withRoutes: boolean,
    meter: MemoryMeter = UNMETERED,
  ) {
    this.keys = opts.keys;
    this.flows = opts.keys * opts.classes;
    this.lines = Array.from({ length: this.flows }, () => new AttemptQueue(withRoutes, meter));
    let min = Infinity;
    for (let k = 0; k < opts.keys; k++) min = Math.min(min, opts.weights[k]);
    this.quantum = new Float64Array(this.flows);
    for (let f = 0; f < this.flows; f++) this.quantum[f] = opts.weights[f % opts.keys] / min;
    this.deficit = new Float64Array(this.flows);
    this.inTurn = new Uint8Array(this.flows);
    this.ring = Array.from({ length: opts.classes }, () => new Int32Array(opts.keys));
    this.ringHead = new Int32Array(opts.classes);
    this.ringSize = new Int32Array(opts.classes);
  }

  /** Arrival time of the oldest entry of any flow (what age-based shedding reads); only valid when length > 0. */
  get frontT(): number {
    let t = Infinity;
    for (let f = 0; f < this.flows; f++) if (this.lines[f].length > 0 && this.lines[f].frontT < t) t = this.lines[f].frontT;
    return t;
  }

  push(id: number, t: number, route: number): number {
    const f = this.opts.classOf(id) * this.keys + this.opts.keyOf(id);
    const line = this.lines[f];
    if (line.length === 0) {
      // The flow joins the end of its class's round.
      const c = (f / this.keys) | 0;
      const ring = this.ring[c];
      ring[(this.ringHead[c] + this.ringSize[c]) % ring.length] = f;
      this.ringSize[c]++;
    }
    this.length++;
    return line.push(id, t, route) * this.flows + f;
  }

  popFront(): void {
    this.pop(false);
  }

  popBack(): void {
    this.pop(true);
  }

  /** Serves the flow whose turn it is, in the highest class with anything queued. */
  private pop(newest: boolean): void {
    let c = 0;
    while (this.ringSize[c] === 0) c++;
    const ring = this.ring[c];
    for (;;) {
      const f = ring[this.ringHead[c]];
      if (!this.inTurn[f]) {
        this.inTurn[f] = 1;
        this.deficit[f] += this.quantum[f];
      }
      if (this.deficit[f] >= 1) {
        this.deficit[f] -= 1;
        const line = this.lines[f];
        if (newest) line.popBack();
        else line.popFront();
        this.poppedId = line.poppedId;
        this.poppedT = line.poppedT;
        this.poppedRoute = line.poppedRoute;
        this.poppedIndex = line.poppedIndex * this.flows + f;
        this.length--;
        if (line.length === 0) {
          // An idle flow leaves the round and keeps no credit (DRR: a flow cannot save turns).
          this.deficit[f] = 0;
          this.inTurn[f] = 0;
          this.ringHead[c] = (this.ringHead[c] + 1) % ring.length;
          this.ringSize[c]--;
        }
        return;
      }
      // Its turn is over: to the back of the round.
      this.inTurn[f] = 0;
      const h = this.ringHead[c];
      this.ringHead[c] = (h + 1) % ring.length;
      ring[(h + this.ringSize[c]) % ring.length] = f;
    }
  }
}
