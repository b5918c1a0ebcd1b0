/**
 * The pending-event set: a binary min-heap ordered by (time, seq), where seq is the order
 * in which events were scheduled, so simultaneous events run in scheduling order and every
 * run of the same inputs is the same run.
 *
 * The engine hands out seq numbers (they are shared with its FIFO lanes).
 * An event is four numbers (time, kind, ref, aux) kept in parallel typed arrays rather than
 * objects: the simulator schedules millions of events per second and must not allocate per
 * event. `ref`/`aux` are whatever the handler of `kind` needs (typically a record index and
 * its generation, so a stale event can recognise itself).
 */
export class EventQueue {
  private time: Float64Array;
  private seq: Float64Array;
  private kind: Int32Array;
  private ref: Int32Array;
  private aux: Int32Array;
  private n = 0;

  // The popped event, read by the run loop right after pop().
  poppedTime = 0;
  poppedKind = 0;
  poppedRef = 0;
  poppedAux = 0;

  constructor(capacity = 1024) {
    capacity = Math.max(1, capacity); // grow() doubles: a zero capacity would stay zero
    this.time = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.kind = new Int32Array(capacity);
    this.ref = new Int32Array(capacity);
    this.aux = new Int32Array(capacity);
  }

  get size(): number {
    return this.n;
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.n > 0 ? this.time[0] : Infinity;
  }

  /** Time and seq of the earliest event; only valid when size > 0. */
  peekSeq(): number {
    return this.seq[0];
  }

  push(time: number, seq: number, kind: number, ref: number, aux: number): void {
    if (this.n === this.time.length) this.grow();
    const T = this.time, S = this.seq;
    // Sift up with a hole: move parents down until the new event fits.
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = T[p];
      if (pt < time || (pt === time && S[p] < seq)) break;
      this.move(p, i);
      i = p;
    }
    T[i] = time; S[i] = seq; this.kind[i] = kind; this.ref[i] = ref; this.aux[i] = aux;
  }

  /** Removes the earliest event into popped*; the caller checks size first. */
  pop(): void {
    const T = this.time, S = this.seq, K = this.kind, R = this.ref, A = this.aux;
    this.poppedTime = T[0]; this.poppedKind = K[0]; this.poppedRef = R[0]; this.poppedAux = A[0];
    const last = --this.n;
    if (last === 0) return;
    const t = T[last], s = S[last], k = K[last], r = R[last], a = A[last];
    // Sift down with a hole from the root.
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      const c2 = c + 1;
      if (c2 < last && (T[c2] < T[c] || (T[c2] === T[c] && S[c2] < S[c]))) c = c2;
      if (t < T[c] || (t === T[c] && s < S[c])) break;
      this.move(c, i);
      i = c;
    }
    T[i] = t; S[i] = s; K[i] = k; R[i] = r; A[i] = a;
  }

  private move(from: number, to: number): void {
    this.time[to] = this.time[from];
    this.seq[to] = this.seq[from];
    this.kind[to] = this.kind[from];
    this.ref[to] = this.ref[from];
    this.aux[to] = this.aux[from];
  }

  private grow(): void {
    const cap = this.time.length * 2;
    const grow64 = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
    const grow32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.time = grow64(this.time);
    this.seq = grow64(this.seq);
    this.kind = grow32(this.kind);
    this.ref = grow32(this.ref);
    this.aux = grow32(this.aux);
  }
}
