/**
 * What `run --json` prints: the outcome of a run as one JSON document on stdout, for a script
 * or a CI step that acts on it (README, "Output for scripts"). Only what decides the outcome
 * and where the rest is: the verdict, the expectations and guards checked, the runs that
 * failed and the files written; summary.json, among those files, holds everything else. The
 * shape is named by `format`, which changes when it does.
 */
import type { Results } from '../results/results.js';
import type { GuardResult } from '../results/diff/guards.js';
import type { RunFailure } from '../experiment/experiment.js';

export const RUN_JSON_FORMAT = 'retrystorm-run/1';

export interface RunJson {
  format: typeof RUN_JSON_FORMAT;
  /** The exit code was 0: every run finished, every expectation and guard passed. */
  ok: boolean;
  /** The exit code the command returns with this document (README, "Exit codes"). */
  exitCode: number;
  scenario: string;
  /** Some runs did not finish (interrupted): everything below reads the finished ones. */
  partial: boolean;
  runsPlanned: number;
  runsFinished: number;
  /** The verdict sentence, as the terminal and summary.md say it; null without one (a single variant). */
  verdict: string | null;
  /** Each expectation's outcome, as summary.json's `expectations`. */
  expectations: Results['expectations'];
  /** The guards on change checked against --base (empty without it). */
  guards: Array<Pick<GuardResult, 'name' | 'variant' | 'at' | 'measure' | 'passed' | 'compared' | 'actual'>>;
  failedRuns: Array<Pick<RunFailure, 'variant' | 'point' | 'seed' | 'message'>>;
  /** The results folder, and each file written in it (relative to the working directory where it is inside it). */
  out: string;
  files: string[];
}

export function runJson(r: Omit<RunJson, 'format' | 'ok'>): RunJson {
  return { format: RUN_JSON_FORMAT, ok: r.exitCode === 0, ...r };
}
