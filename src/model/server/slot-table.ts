/**
 * An instance's slot table: what each busy slot is doing (the job's attempt and generation,
 * its work and outcome, when it arrived and ends, its route and the dependency calls it
 * holds), the token its completion event carries, and the stack of free slots.
 *
 * Why a module of its own: this is the instance's per-job state, laid out once in typed
 * arrays sized for the most slots the run may give the instance, so serving a request
 * allocates nothing. The instance's path (begin, done) writes and reads it, and its crash and
 * pause walk it; keeping the layout here leaves the instance the decisions.
 */
export class SlotTable {
  readonly id: Int32Array;
  readonly gen: Int32Array;
  /** The job's service time (its remainder, while paused, is in `end`). */
  readonly work: Float64Array;
  readonly outcome: Int32Array;
  // For adaptive concurrency limits: when each job arrived at the instance, and how many were in flight then.
  readonly arrived: Float64Array;
  readonly inflight: Int32Array;
  readonly route: Int32Array;
  /**
   * Per job, a row of one flag per call of its route (callsPerJob wide): whether that call
   * holds a unit of its dependency's capacity, given back when the job ends.
   */
  readonly holds: Uint8Array;
  readonly callsPerJob: number;
  // When each job's service ends, and the token its completion event carries (a crash or a
  // pause changes it, so the event it outlived does nothing).
  readonly end: Float64Array;
  readonly token: Int32Array;
  readonly busy: Uint8Array;
  private readonly free: Int32Array;
  private top: number;

  constructor(readonly size: number, callsPerJob: number) {
    this.id = new Int32Array(size);
    this.gen = new Int32Array(size);
    this.work = new Float64Array(size);
    this.outcome = new Int32Array(size);
    this.arrived = new Float64Array(size);
    this.inflight = new Int32Array(size);
    this.route = new Int32Array(size);
    this.callsPerJob = callsPerJob;
    this.holds = new Uint8Array(size * callsPerJob);
    this.end = new Float64Array(size);
    this.token = new Int32Array(size);
    this.busy = new Uint8Array(size);
    this.free = Int32Array.from({ length: size }, (_, i) => size - 1 - i);
    this.top = size;
  }

  /** The slot the next job will take (a request's call flags go in its row before it takes it). */
  get nextFree(): number {
    return this.free[this.top - 1];
  }

  /** Takes the next free slot. */
  take(): number {
    return this.free[--this.top];
  }

  /** Slot j is free again. */
  give(j: number): void {
    this.free[this.top++] = j;
  }

  /** A crash or a pause outdates the completion event slot j's job has scheduled. */
  outdate(j: number): void {
    this.token[j] = (this.token[j] + 1) | 0;
  }
}
