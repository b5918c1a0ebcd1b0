/**
 * Runs simulation tasks, on the calling thread (one worker) or on a piscina pool of worker
 * threads. Results are handed back with their task index, so whoever stores them by index
 * gets the same outcome for any number of workers and any completion order. A task that
 * throws is reported and the others go on; aborting stops the pool and keeps what finished.
 */
import { fileURLToPath } from 'node:url';
import { setMaxListeners } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ProgressMessage, RunTask } from './worker.js';
import { runOne, type RunResult } from './run-one.js';
import { RunInterrupted } from '../model/simulate.js';
import { MEASURES, type MeasureRegistry } from '../measures/registry.js';

export interface PoolCallbacks {
  /** A task has started on a worker. */
  onStart?: (task: RunTask) => void;
  /** How far a running task has got, in simulated seconds (a few times a second at most). */
  onProgress?: (task: RunTask, simS: number) => void;
  onResult: (task: RunTask, result: RunResult) => void;
  onError: (task: RunTask, error: Error) => void;
}

/**
 * Where the worker module is: the .ts source under tsx/vitest, or the compiled worker.js. The
 * path is relative to this module's URL, which works from dist/src/experiment/pool.js and from
 * the bundle, whose files all sit one folder below dist/bundle/ (scripts/bundle.mjs).
 */
function workerFile(): { filename: string; execArgv: string[] } {
  const sources = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(`../experiment/worker.${sources ? 'ts' : 'js'}`, import.meta.url));
  if (!sources) return { filename, execArgv: [] };
  // Sources run through tsx; worker threads need the loader too (vitest does not pass it on).
  return { filename, execArgv: process.execArgv.includes('tsx') ? process.execArgv : [...process.execArgv, '--import', 'tsx'] };
}

/**
 * `workers` 0 runs on the calling thread (for library callers that want no threads). From
 * 1 up, runs go to worker threads even when there is one: a run on the main thread could
 * not be interrupted, since a signal handler only runs between runs.
 *
 * Tasks are handed to the pool in the order given, a few more than there are threads at a
 * time (not all at once): an experiment of 100,000 runs then holds a handful of cloned
 * scenarios and progress channels, not 100,000.
 */
export async function runTasks(tasks: RunTask[], workers: number, signal: AbortSignal, cb: PoolCallbacks, registry: MeasureRegistry = MEASURES): Promise<void> {
  if (tasks.length === 0) return;
  if (workers <= 0) return runSequentially(tasks, signal, cb, registry);
  // Measures are code: a worker thread computes the built-in ones, never a caller's own.
  if (registry !== MEASURES) throw new Error('measures beyond the built-in registry are computed on the calling thread: use workers 0');
  const { filename, execArgv } = workerFile();
  const threads = Math.min(workers, tasks.length);
  const feeders = Math.min(tasks.length, threads * 2);
  // Each task in flight listens on the one signal; that is by design, not a leak.
  setMaxListeners(feeders + 10, signal);
  const pool = new Piscina<RunTask, RunResult>({ filename, execArgv, minThreads: threads, maxThreads: threads, idleTimeout: 1000 });
  let next = 0;
  const feed = async (): Promise<void> => {
    while (next < tasks.length && !signal.aborted) {
      const task = tasks[next++];
      await runOnPool(pool, task, signal, cb);
    }
  };
  try {
    await Promise.all(Array.from({ length: feeders }, feed));
  } finally {
    await pool.destroy();
  }
}

/** A pool kept open across batches whose contents are decided one after another (the cliff search). */
export interface TaskPool {
  /** Runs the tasks (in the order given, a few more than threads at a time) and resolves when all have finished. */
  run(tasks: RunTask[], cb: PoolCallbacks): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a pool of `workers` threads (0: the calling thread) that several batches can share: a
 * search decides each batch from the last, and starting threads for every batch of four runs
 * would cost more than the runs. Results come back by task, as with runTasks.
 */
export function openTaskPool(workers: number, signal: AbortSignal): TaskPool {
  if (workers <= 0) {
    return { run: (tasks, cb) => runSequentially(tasks, signal, cb, MEASURES), close: async () => {} };
  }
  const { filename, execArgv } = workerFile();
  const pool = new Piscina<RunTask, RunResult>({ filename, execArgv, minThreads: workers, maxThreads: workers, idleTimeout: 1000 });
  setMaxListeners(0, signal); // every task in flight listens on the one signal, by design
  return {
    async run(tasks, cb) {
      let next = 0;
      const feed = async (): Promise<void> => {
        while (next < tasks.length && !signal.aborted) await runOnPool(pool, tasks[next++], signal, cb);
      };
      await Promise.all(Array.from({ length: Math.min(tasks.length, workers * 2) }, feed));
    },
    close: () => pool.destroy(),
  };
}

async function runOnPool(pool: Piscina<RunTask, RunResult>, task: RunTask, signal: AbortSignal, cb: PoolCallbacks): Promise<void> {
  // A channel per task (piscina's documented way to talk to a running task): the worker
  // posts the simulated time it has reached, 0 first when it starts; the port is transferred.
  const watch = cb.onStart || cb.onProgress;
  const channel = watch ? new MessageChannel() : undefined;
  let started = false;
  let finished = false;
  const start = () => {
    if (started) return;
    started = true;
    cb.onStart?.(task);
  };
  channel?.port2.on('message', (m: ProgressMessage) => {
    if (finished) return; // the two channels do not keep order with each other
    start();
    cb.onProgress?.(task, m.simS);
  });
  try {
    const result = await pool.run(channel ? { ...task, progress: channel.port1 } : task, {
      signal,
      ...(channel ? { transferList: [channel.port1] } : {}),
    });
    start(); // a run too short for its first message to have arrived yet
    finished = true;
    cb.onResult(task, result);
  } catch (error) {
    finished = true;
    if (!signal.aborted) cb.onError(task, error as Error);
  } finally {
    channel?.port2.close();
  }
}

async function runSequentially(tasks: RunTask[], signal: AbortSignal, cb: PoolCallbacks, registry: MeasureRegistry): Promise<void> {
  const shouldStop = () => signal.aborted;
  for (const task of tasks) {
    await new Promise((r) => setImmediate(r)); // lets a SIGINT handler run (and abort) between runs
    if (signal.aborted) return;
    cb.onStart?.(task);
    const onProgress = cb.onProgress;
    let result: RunResult;
    try {
      result = runOne(task.scenario, task.variant, task.point, task.seed, {
        shouldStop,
        budget: task.budget,
        ...(onProgress ? { onProgress: (simS: number) => onProgress(task, simS) } : {}),
      }, registry);
    } catch (e) {
      if (e instanceof RunInterrupted) return;
      cb.onError(task, e as Error);
      continue;
    }
    cb.onResult(task, result);
  }
}
