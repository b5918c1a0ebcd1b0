/**
 * A FIFO lane: pending events known to come due in the order they are scheduled, such as
 * per-try timeouts of one client population (same delay, scheduled in time order). Kept
 * in a ring instead of the heap, they cost O(1) instead of O(log n) and keep the heap
 * small; the engine merges lane heads with the heap by the same (time, seq) key, so the
 * order of events is exactly what it would be with the heap alone.
 */
export class FifoLane {
  time = new Float64Array(1024);
  seq = new Float64Array(1024);
  kind = new Int32Array(1024);
  ref = new Int32Array(1024);
  aux = new Int32Array(1024);
  head = 0;
  size = 0;
  /** Time of the last event pushed: a lane only accepts events due no earlier. */
  tailTime = -Infinity;

  push(time: number, seq: number, kind: number, ref: number, aux: number): void {
    if (this.size === this.time.length) this.grow();
    const i = (this.head + this.size) & (this.time.length - 1);
    this.time[i] = time; this.seq[i] = seq; this.kind[i] = kind; this.ref[i] = ref; this.aux[i] = aux;
    this.size++;
    this.tailTime = time;
  }

  shift(): void {
    this.head = (this.head + 1) & (this.time.length - 1);
    this.size--;
  }

  private grow(): void {
    const cap = this.time.length * 2;
    const mask = this.time.length - 1;
    const copy = <T extends Float64Array | Int32Array>(a: T, b: T): T => {
      for (let k = 0; k < this.size; k++) b[k] = a[(this.head + k) & mask];
      return b;
    };
    this.time = copy(this.time, new Float64Array(cap));
    this.seq = copy(this.seq, new Float64Array(cap));
    this.kind = copy(this.kind, new Int32Array(cap));
    this.ref = copy(this.ref, new Int32Array(cap));
    this.aux = copy(this.aux, new Int32Array(cap));
    this.head = 0;
  }
}
