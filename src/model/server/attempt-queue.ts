/**
 * The line of attempts waiting at one server instance, as a deque of fixed-size chunks.
 *
 * In a retry storm this queue is most of a run's memory: millions of attempts whose
 * clients gave up long ago, which the server will still serve. So an entry is as small as
 * it can be while staying exact (12 bytes: the attempt's id and its arrival time, plus its
 * route when the server has more than one), and memory follows the queue's length both
 * ways: chunks are added as it grows and dropped as it drains (a ring that doubles would
 * hold up to twice what is queued, copy everything at each doubling, and never shrink).
 *
 * Each entry has an index, its number among the entries pushed, which it keeps while it
 * waits: the instance uses it to tell whether an attempt is still the one it queued
 * (see Instance).
 */
import { UNMETERED, type MemoryMeter } from '../../engine/budget.js';

const CHUNK_SHIFT = 14;
const CHUNK = 1 << CHUNK_SHIFT; // 16,384 entries: 192 KiB a chunk with one route
const OFFSET_MASK = CHUNK - 1;

class Chunk {
  readonly id = new Int32Array(CHUNK);
  readonly t = new Float64Array(CHUNK);
  readonly route: Int32Array | undefined;
  constructor(withRoutes: boolean) {
    this.route = withRoutes ? new Int32Array(CHUNK) : undefined;
  }
}

export class AttemptQueue {
  private readonly chunks: Chunk[] = [];
  /** One emptied chunk kept for reuse, so a queue hovering at a chunk boundary does not allocate. */
  private spare: Chunk | undefined;
  /** Offset of the head entry in chunks[0]. */
  private head = 0;
  /** Index of chunks[0]'s first entry. */
  private base = 0;
  length = 0;
  private readonly chunkBytes: number;

  // The entry removed by the last popFront/popBack.
  poppedId = 0;
  poppedT = 0;
  poppedRoute = 0;
  poppedIndex = 0;

  constructor(
    /** Keep each entry's route (a server with several routes); otherwise every entry is route 0. */
    private readonly withRoutes: boolean,
    private readonly meter: MemoryMeter = UNMETERED,
  ) {
    this.chunkBytes = CHUNK * (4 + 8 + (withRoutes ? 4 : 0));
  }

  /** Arrival time of the head entry; only valid when length > 0. */
  get frontT(): number {
    return this.chunks[0].t[this.head];
  }

  /** Appends an entry and returns its index. */
  push(id: number, t: number, route: number): number {
    const rel = this.head + this.length;
    const c = rel >> CHUNK_SHIFT;
    const chunk = c < this.chunks.length ? this.chunks[c] : this.addChunk();
    const off = rel & OFFSET_MASK;
    chunk.id[off] = id;
    chunk.t[off] = t;
    if (chunk.route) chunk.route[off] = route;
    this.length++;
    return this.base + rel;
  }

  /** Removes the oldest entry into popped*; the caller checks length first. */
  popFront(): void {
    const chunk = this.chunks[0];
    const off = this.head;
    this.read(chunk, off, this.base + off);
    this.length--;
    if (++this.head === CHUNK) {
      this.dropChunk(this.chunks.shift()!);
      this.head = 0;
      this.base += CHUNK;
    } else if (this.length === 0) {
      // Empty: start over at the first chunk's beginning; indices keep counting up.
      this.base += this.head;
      this.head = 0;
    }
  }

  /** Removes the newest entry into popped* (LIFO); the caller checks length first. */
  popBack(): void {
    this.length--;
    const rel = this.head + this.length;
    const c = rel >> CHUNK_SHIFT;
    const off = rel & OFFSET_MASK;
    this.read(this.chunks[c], off, this.base + rel);
    // A chunk past the head's that became empty goes.
    if (off === 0 && c > 0) this.dropChunk(this.chunks.pop()!);
  }

  private read(chunk: Chunk, off: number, index: number): void {
    this.poppedId = chunk.id[off];
    this.poppedT = chunk.t[off];
    this.poppedRoute = chunk.route ? chunk.route[off] : 0;
    this.poppedIndex = index;
  }

  private addChunk(): Chunk {
    let chunk = this.spare;
    if (chunk) this.spare = undefined;
    else {
      this.meter.grew(this.chunkBytes, "a server instance's queue");
      chunk = new Chunk(this.withRoutes);
    }
    this.chunks.push(chunk);
    return chunk;
  }

  private dropChunk(chunk: Chunk): void {
    if (this.spare === undefined) this.spare = chunk;
    else this.meter.shrank(this.chunkBytes);
  }
}
