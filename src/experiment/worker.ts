/**
 * The piscina worker: runs one simulation. It receives the already-validated scenario of
 * its (variant, sweep point), so a worker never re-reads or re-validates files and its
 * result depends only on the task. While it runs it posts how far it has got in simulated
 * time on the task's progress port, so the command line can show a long run moving.
 */
import type { MessagePort } from 'node:worker_threads';
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
  /** Where to post progress messages, if anyone listens (piscina transfers it with the task). */
  progress?: MessagePort;
}

/** What the worker posts on the progress port: the simulated time reached, in seconds. */
export interface ProgressMessage {
  simS: number;
}

/** At most this often (wall-clock ms) a progress message is posted: the engine polls every 64k events. */
const POST_EVERY_MS = 50;

export default function run(task: RunTask): RunResult {
  const port = task.progress;
  if (!port) return runOne(task.scenario, task.variant, task.point, task.seed, { budget: task.budget });
  // The first message says the run has started (it may have waited in the pool's queue).
  port.postMessage({ simS: 0 } satisfies ProgressMessage);
  let last = performance.now();
  try {
    return runOne(task.scenario, task.variant, task.point, task.seed, {
      budget: task.budget,
      onProgress: (simS) => {
        const now = performance.now();
        if (now - last < POST_EVERY_MS) return;
        last = now;
        port.postMessage({ simS } satisfies ProgressMessage);
      },
    });
  } finally {
    port.close();
  }
}
