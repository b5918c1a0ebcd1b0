/**
 * A FIFO lane: pending events known to come due in the order they are scheduled, such as
 * per-try timeouts of one client population (same delay, scheduled in time order). Kept
 * in a ring instead of the heap, they cost O(1) instead of O(log n) and keep the heap
 * small; the engine merges lane heads with the heap by the same (time, seq) key, so the
 * order of events is exactly what it would be with the heap alone.
 *
 * Lane events can be cancelled. A timeout is pointless once its try has been answered, and
 * most are: left in place, they would make memory follow the tries made within one timeout
 * rather than the tries in flight. With retries that fail and restart at the same instant
 * (no backoff against failures answered at once) the clock stops and nothing would ever
 * leave the lane. A cancelled event is marked and dropped as soon as it is at either end,
 * so the head is always a live event and the run loop never sees a cancelled one.
 *
 * Each pushed event gets a handle: its absolute index among the lane's pushes, which maps
 * to ring position `handle & mask` for as long as it is in the lane.
 *
 * The lane keeps the time of its head in `heads[index]` (Infinity when empty), an array the
 * engine shares among all its lanes: the run loop compares the heads of a dozen lanes for
 * every event, and reads them from one small array instead of from each lane's ring.
 */
import { MemoryMeter, UNMETERED } from './budget.js';

const CANCELLED = -1;
const BYTES_PER_EVENT = 8 + 8 + 4 + 4 + 4;

export class FifoLane {
  time: Float64Array;
  seq: Float64Array;
  kind: Int32Array;
  ref: Int32Array;
  aux: Int32Array;
  /** Ring position of the first event (always live when size > 0). */
  head = 0;
  /** Events from the head to the tail, cancelled ones in between included. */
  size = 0;
  /** Cancelled events between the head and the tail, still in the ring. */
  private cancelled = 0;
  /** Handle of the event at the head: handles below it have left the lane. */
  private first = 0;
  /** Time of the last event pushed: a lane only accepts events due no earlier. */
  tailTime = -Infinity;

  /**
   * `heads`/`index`: where the lane keeps its head's time for the engine (the engine points
   * `heads` at a larger array when it adds lanes); by default an array of its own.
   */
  constructor(
    capacity = 1024,
    private readonly meter: MemoryMeter = UNMETERED,
    public heads: Float64Array = new Float64Array([Infinity]),
    readonly index = 0,
  ) {
    this.time = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.kind = new Int32Array(capacity);
    this.ref = new Int32Array(capacity);
    this.aux = new Int32Array(capacity);
    meter.grew(capacity * BYTES_PER_EVENT, 'a lane of timeouts');
  }

  /** Appends an event (the caller checked time >= tailTime) and returns its handle. */
  push(time: number, seq: number, kind: number, ref: number, aux: number): number {
    if (this.size === this.time.length) this.grow();
    const i = (this.head + this.size) & (this.time.length - 1);
    this.time[i] = time; this.seq[i] = seq; this.kind[i] = kind; this.ref[i] = ref; this.aux[i] = aux;
    if (this.size++ === 0) this.heads[this.index] = time;
    this.tailTime = time;
    return this.first + this.size - 1;
  }

  /** Events waiting to run (cancelled ones not counted). */
  get live(): number {
    return this.size - this.cancelled;
  }

  /** Removes the head event (the run loop read it), then any cancelled ones behind it. */
  shift(): void {
    const mask = this.time.length - 1;
    this.head = (this.head + 1) & mask;
    this.first++;
    this.size--;
    while (this.size > 0 && this.kind[this.head] === CANCELLED) {
      this.head = (this.head + 1) & mask;
      this.first++;
      this.size--;
      this.cancelled--;
    }
    this.heads[this.index] = this.size > 0 ? this.time[this.head] : Infinity;
  }

  /** Cancels the event `handle` if it is still in the lane (a handle that already ran, or was cancelled, is ignored). */
  cancel(handle: number): void {
    const offset = handle - this.first;
    if (offset < 0 || offset >= this.size) return;
    const mask = this.time.length - 1;
    const i = (this.head + offset) & mask;
    if (this.kind[i] === CANCELLED) return;
    this.kind[i] = CANCELLED;
    if (offset === 0) {
      this.shift();
    } else if (offset === this.size - 1) {
      // Drop the tail and the cancelled events before it; the lane then accepts events
      // due from the new tail's time on. (The head is live, so this stops there.)
      this.size--;
      while (this.kind[(this.head + this.size - 1) & mask] === CANCELLED) {
        this.size--;
        this.cancelled--;
      }
      this.tailTime = this.time[(this.head + this.size - 1) & mask];
    } else {
      this.cancelled++;
    }
    if (this.size === 0) this.tailTime = -Infinity;
  }

  private grow(): void {
    const old = this.time.length;
    const cap = old * 2;
    this.meter.grew((cap - old) * BYTES_PER_EVENT, 'a lane of timeouts');
    // Each event moves to position (handle & new mask), so handles stay valid.
    const oldMask = old - 1, mask = cap - 1;
    const move = <T extends Float64Array | Int32Array>(a: T, b: T): T => {
      for (let k = 0; k < this.size; k++) b[(this.first + k) & mask] = a[(this.head + k) & oldMask];
      return b;
    };
    this.time = move(this.time, new Float64Array(cap));
    this.seq = move(this.seq, new Float64Array(cap));
    this.kind = move(this.kind, new Int32Array(cap));
    this.ref = move(this.ref, new Int32Array(cap));
    this.aux = move(this.aux, new Int32Array(cap));
    this.head = this.first & mask;
  }
}
