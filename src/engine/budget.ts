/**
 * What one run may use before it is stopped: memory for its own state, and events at one
 * simulated instant. A model can ask for more than a machine has (an unbounded queue fed
 * faster than it drains, retries with no backoff against failures answered at once), and a
 * run that takes the host down loses every other run with it. With a budget the run stops
 * with an error that says what grew, and the other runs go on.
 *
 * Memory is metered, not measured: every structure whose size follows the model (pending
 * events, FIFO lanes, server queues, record pools) reports the bytes it allocates when it
 * grows and frees when it shrinks. That keeps the verdict deterministic (the same scenario
 * and seed stop at the same point on any machine and with any number of workers), which a
 * reading of the process's RSS, shared by worker threads, would not be.
 */

export class RunBudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunBudgetExceeded';
  }
}

const MiB = 1024 * 1024;

export function formatBytes(n: number): string {
  return n >= 1024 * MiB ? `${(n / (1024 * MiB)).toFixed(n % (1024 * MiB) === 0 ? 0 : 1)} GiB` : `${Math.round(n / MiB)} MiB`;
}

/** Bytes held by a run's growable state, against a limit. */
export class MemoryMeter {
  bytes = 0;
  peakBytes = 0;

  constructor(readonly limitBytes = Infinity) {}

  /**
   * `what` grew by `bytes` (it is about to allocate them); throws when the run would then
   * hold more than its limit. `what` names the structure in the error ("the server's queue").
   */
  grew(bytes: number, what: string): void {
    const total = this.bytes + bytes;
    if (total > this.limitBytes) {
      throw new RunBudgetExceeded(
        `the run would hold more than its memory budget of ${formatBytes(this.limitBytes)} ` +
          `(${formatBytes(total)} of simulation state when ${what} grew)`,
      );
    }
    this.bytes = total;
    if (total > this.peakBytes) this.peakBytes = total;
  }

  shrank(bytes: number): void {
    this.bytes -= bytes;
  }
}

/** For structures used on their own (tests, tools): counts, never throws. */
export const UNMETERED = new MemoryMeter();
