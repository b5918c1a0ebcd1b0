/**
 * Ctrl-C and SIGTERM (kill, a pod or a CI job being stopped) for the commands that simulate:
 * the first signal stops the experiment, which keeps its finished runs (the command then
 * writes them, marked partial); a second means now. One place, so `run` and `diff` say and
 * do the same.
 */
import { EXIT } from './errors.js';
import type { Io } from './scenario-input.js';

export interface StopSignals {
  /** Aborted by the first signal: what runExperiment (or a search) takes to stop. */
  readonly signal: AbortSignal;
  /** The exit code of a stop: 130 for SIGINT, 143 for SIGTERM. */
  exitCode(): number;
  /** Stops listening (the command is past its runs). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM; `keeping` says what the command does with what finished. */
export function stopOnSignals(io: Io, keeping: string): StopSignals {
  const abort = new AbortController();
  let stoppedBy: 'SIGINT' | 'SIGTERM' | null = null;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (abort.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted); // a second signal means now
    stoppedBy = signal;
    abort.abort();
    io.err(`\nstopping (${signal}): ${keeping} (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again to quit at once)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: abort.signal,
    exitCode: () => (stoppedBy === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted),
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
