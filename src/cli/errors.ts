/**
 * The errors a user can cause, and the exit code each maps to. Only the bin turns them
 * into exit codes; everything below it throws typed errors and stays testable.
 */
export const EXIT = {
  ok: 0,
  /** The run worked but an expectation failed (a policy regressed). */
  expectationFailed: 1,
  /** Bad input: scenario file, flags. */
  badInput: 2,
  /** Interrupted (Ctrl-C, SIGINT); finished results were written and marked partial. */
  interrupted: 130,
  /** Stopped by SIGTERM (kill, a pod or CI job being stopped); finished results were written and marked partial. */
  terminated: 143,
  /** A bug in retrystorm. */
  internal: 70,
  /** The results could not be written (a full disk, a folder gone read-only): the previous ones are intact, the finished runs kept (sysexits' EX_CANTCREAT). */
  cannotWrite: 73,
} as const;

/** The outputs could not be written; what finished is kept, and the message says where (exit 73). */
export class OutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

/** A wrong flag or argument, said in one line. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
