/**
 * The pending-event set: a binary min-heap ordered by (time, seq), where seq is the order
 * in which events were scheduled, so simultaneous events run in scheduling order and every
 * run of the same inputs is the same run.
 *
 * The engine hands out seq numbers (they are shared with its FIFO lanes).
 * An event is four numbers (time, kind, ref, aux) kept in typed arrays rather than objects:
 * the simulator schedules millions of events per second and must not allocate per event.
 * `ref`/`aux` are whatever the handler of `kind` needs (typically a record index and its
 * generation, so a stale event can recognise itself).
 *
 * The heap itself holds only (time, slot) per position; an event's seq, kind, ref and aux
 * stay in its slot, which never moves. Sifting moves 12 bytes per level instead of 28, and
 * the seq is read only to break a tie in time, which is rare. (Profiling the reference
 * storm put the heap at about a quarter of the run before this.)
 */
import { MemoryMeter, UNMETERED } from './budget.js';

/** Bytes per capacity unit: time and slot by position, seq, kind, ref, aux and the free list by slot. */
const BYTES_PER_EVENT = 8 + 4 + 8 + 4 + 4 + 4 + 4;

export class EventQueue {
  // By heap position.
  private time: Float64Array;
  private slot: Int32Array;
  // By slot: the event's payload, and the free slots.
  private seq: Float64Array;
  private kind: Int32Array;
  private ref: Int32Array;
  private aux: Int32Array;
  private free: Int32Array;
  private freeTop = 0;
  /** Slots ever used; slots below it are either in the heap or on the free list. */
  private slotsUsed = 0;
  private n = 0;

  // The popped event, read by the run loop right after pop().
  poppedTime = 0;
  poppedKind = 0;
  poppedRef = 0;
  poppedAux = 0;

  constructor(capacity = 1024, private readonly meter: MemoryMeter = UNMETERED) {
    capacity = Math.max(1, capacity); // grow() doubles: a zero capacity would stay zero
    this.time = new Float64Array(capacity);
    this.slot = new Int32Array(capacity);
    this.seq = new Float64Array(capacity);
    this.kind = new Int32Array(capacity);
    this.ref = new Int32Array(capacity);
    this.aux = new Int32Array(capacity);
    this.free = new Int32Array(capacity);
    meter.grew(capacity * BYTES_PER_EVENT, 'pending events');
  }

  get size(): number {
    return this.n;
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.n > 0 ? this.time[0] : Infinity;
  }

  /** Seq of the earliest event; only valid when size > 0. */
  peekSeq(): number {
    return this.seq[this.slot[0]];
  }

  push(time: number, seq: number, kind: number, ref: number, aux: number): void {
    if (this.n === this.time.length) this.grow();
    const s = this.freeTop > 0 ? this.free[--this.freeTop] : this.slotsUsed++;
    this.seq[s] = seq;
    this.kind[s] = kind;
    this.ref[s] = ref;
    this.aux[s] = aux;
    const T = this.time, H = this.slot, S = this.seq;
    // Sift up with a hole: move parents down until the new event fits.
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = T[p];
      if (pt < time || (pt === time && S[H[p]] < seq)) break;
      T[i] = pt;
      H[i] = H[p];
      i = p;
    }
    T[i] = time;
    H[i] = s;
  }

  /** Removes the earliest event into popped*; the caller checks size first. */
  pop(): void {
    const T = this.time, H = this.slot, S = this.seq;
    const top = H[0];
    this.poppedTime = T[0];
    this.poppedKind = this.kind[top];
    this.poppedRef = this.ref[top];
    this.poppedAux = this.aux[top];
    this.free[this.freeTop++] = top;
    const last = --this.n;
    if (last === 0) return;
    const t = T[last], s = H[last], sq = S[s];
    // Sift down with a hole from the root.
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      let ct = T[c];
      const c2 = c + 1;
      if (c2 < last) {
        const t2 = T[c2];
        if (t2 < ct || (t2 === ct && S[H[c2]] < S[H[c]])) {
          c = c2;
          ct = t2;
        }
      }
      if (t < ct || (t === ct && sq < S[H[c]])) break;
      T[i] = ct;
      H[i] = H[c];
      i = c;
    }
    T[i] = t;
    H[i] = s;
  }

  private grow(): void {
    const old = this.time.length;
    const cap = old * 2;
    this.meter.grew((cap - old) * BYTES_PER_EVENT, 'pending events');
    const grow64 = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
    const grow32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.time = grow64(this.time);
    this.slot = grow32(this.slot);
    this.seq = grow64(this.seq);
    this.kind = grow32(this.kind);
    this.ref = grow32(this.ref);
    this.aux = grow32(this.aux);
    this.free = grow32(this.free);
  }
}
