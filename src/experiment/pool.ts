/**
 * Runs simulation tasks, on the calling thread (one worker) or on a piscina pool of worker
 * threads. Results are handed back with their task index, so whoever stores them by index
 * gets the same outcome for any number of workers and any completion order. A task that
 * throws is reported and the others go on; aborting stops the pool and keeps what finished.
 */
import { fileURLToPath } from 'node:url';
import { setMaxListeners } from 'node:events';
import { Piscina } from 'piscina';
import type { RunTask } from './worker.js';
import { runOne, type RunResult } from './run-one.js';
import { RunInterrupted } from '../model/simulate.js';

export interface PoolCallbacks {
  onResult: (task: RunTask, result: RunResult) => void;
  onError: (task: RunTask, error: Error) => void;
}

/** Where the worker module is: the compiled .js next to this file, or the .ts source under tsx/vitest. */
function workerFile(): { filename: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    // Sources run through tsx; worker threads need the loader too (vitest does not pass it on).
    const execArgv = process.execArgv.includes('tsx') ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
    return { filename: here.replace(/pool\.ts$/, 'worker.ts'), execArgv };
  }
  return { filename: here.replace(/pool\.js$/, 'worker.js'), execArgv: [] };
}

/**
 * `workers` 0 runs on the calling thread (for library callers that want no threads). From
 * 1 up, runs go to worker threads even when there is one: a run on the main thread could
 * not be interrupted, since a signal handler only runs between runs.
 */
export async function runTasks(tasks: RunTask[], workers: number, signal: AbortSignal, cb: PoolCallbacks): Promise<void> {
  if (tasks.length === 0) return;
  if (workers <= 0) return runSequentially(tasks, signal, cb);
  const { filename, execArgv } = workerFile();
  // Every queued task listens on the one signal; that is by design, not a leak.
  setMaxListeners(tasks.length + 10, signal);
  const pool = new Piscina<RunTask, RunResult>({
    filename,
    execArgv,
    minThreads: Math.min(workers, tasks.length),
    maxThreads: Math.min(workers, tasks.length),
    idleTimeout: 1000,
  });
  try {
    await Promise.all(
      tasks.map((task) =>
        pool.run(task, { signal }).then(
          (result) => cb.onResult(task, result),
          (error: Error) => {
            if (!signal.aborted) cb.onError(task, error);
          },
        ),
      ),
    );
  } finally {
    await pool.destroy();
  }
}

async function runSequentially(tasks: RunTask[], signal: AbortSignal, cb: PoolCallbacks): Promise<void> {
  const stop = () => signal.aborted;
  for (const task of tasks) {
    await new Promise((r) => setImmediate(r)); // lets a SIGINT handler run (and abort) between runs
    if (signal.aborted) return;
    let result: RunResult;
    try {
      result = runOne(task.scenario, task.variant, task.point, task.seed, { shouldStop: stop, budget: task.budget });
    } catch (e) {
      if (e instanceof RunInterrupted) return;
      cb.onError(task, e as Error);
      continue;
    }
    cb.onResult(task, result);
  }
}
