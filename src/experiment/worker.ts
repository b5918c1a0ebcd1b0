/**
 * The piscina worker: runs one simulation. It receives the already-validated scenario of
 * its (variant, sweep point), so a worker never re-reads or re-validates files and its
 * result depends only on the task.
 */
import type { Scenario } from '../scenario/schema.js';
import type { RunBudget } from '../model/simulate.js';
import { runOne, type RunResult } from './run-one.js';

export interface RunTask {
  index: number;
  variant: string;
  point: number;
  seed: number;
  scenario: Scenario;
  /** The run's budget (defaults where missing). */
  budget?: Partial<RunBudget>;
}

export default function run(task: RunTask): RunResult {
  return runOne(task.scenario, task.variant, task.point, task.seed, { budget: task.budget });
}
