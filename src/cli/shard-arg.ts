/**
 * Reads `--shard`: `i/n` as written, or `auto` / `auto/n` to take the shard from the batch
 * engine that started the process, so that one command line (one container image, one job
 * script) serves every shard:
 *
 * - Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) gives the index. A pod is not
 *   told how many completions its Job has, so n is written: `--shard auto/8`.
 * - Slurm job array: `SLURM_ARRAY_TASK_ID` within `SLURM_ARRAY_TASK_MIN`..`MAX` by
 *   `SLURM_ARRAY_TASK_STEP` gives the index, and `SLURM_ARRAY_TASK_COUNT` the count, so
 *   `--shard auto` is enough (`--array=0-7`, `1-8` and `0-14:2` all give shards 1..8).
 * - Anything else: `RETRYSTORM_SHARD_INDEX` (1-based, like `--shard`), e.g. from a CI matrix.
 *
 * A shard that cannot be worked out is refused with a message naming what was read, never
 * guessed: two shards that both ran as 1/n would merge into a wrong result.
 */
import { parseShard, type Shard } from '../experiment/expand.js';

type Env = Record<string, string | undefined>;

const SOURCES = 'JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), SLURM_ARRAY_TASK_ID (a Slurm job array) or RETRYSTORM_SHARD_INDEX (1-based)';

/** Returns the shard, or a one-line message saying what is wrong. */
export function shardFromArg(text: string, env: Env): Shard | string {
  const m = /^auto(?:\/(.*))?$/.exec(text.trim());
  if (!m) return parseShard(text);
  let count: number | undefined;
  if (m[1] !== undefined) {
    if (!/^\d+$/.test(m[1]) || Number(m[1]) < 1) return `--shard auto/n takes a whole number of shards n ≥ 1 (got "${text}")`;
    count = Number(m[1]);
  }
  const found = indexFromEnv(env);
  if (typeof found === 'string') return found;
  if (!found) return `--shard ${text}: no shard index in the environment; set ${SOURCES}, or write --shard i/n`;
  count ??= found.count;
  if (count === undefined) {
    return `--shard auto: ${found.from} gives the index but not the number of shards; write --shard auto/n with n the number of shards (for a Kubernetes Job, its completions)`;
  }
  if (found.count !== undefined && found.count !== count) {
    return `--shard ${text}: ${found.from} says ${found.count} shards, not ${count}`;
  }
  if (found.index > count) return `--shard ${text}: ${found.from} makes this shard ${found.index}, but there are only ${count} shards`;
  return { index: found.index, count };
}

interface Found {
  /** 1-based. */
  index: number;
  count?: number;
  /** The variables read, for messages. */
  from: string;
}

function indexFromEnv(env: Env): Found | string | undefined {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const present = ['JOB_COMPLETION_INDEX', 'SLURM_ARRAY_TASK_ID', 'RETRYSTORM_SHARD_INDEX'].filter(set);
  if (present.length > 1) return `--shard auto: ${present.join(' and ')} are both set; unset all but one, or write --shard i/n`;
  const whole = (name: string, min: number): number | string => {
    const v = env[name]!.trim();
    return /^\d+$/.test(v) && Number(v) >= min ? Number(v) : `--shard auto: ${name} must be a whole number ≥ ${min} (got "${env[name]}")`;
  };
  if (set('JOB_COMPLETION_INDEX')) {
    const k = whole('JOB_COMPLETION_INDEX', 0);
    return typeof k === 'string' ? k : { index: k + 1, from: `JOB_COMPLETION_INDEX=${k}` };
  }
  if (set('RETRYSTORM_SHARD_INDEX')) {
    const i = whole('RETRYSTORM_SHARD_INDEX', 1);
    return typeof i === 'string' ? i : { index: i, from: `RETRYSTORM_SHARD_INDEX=${i}` };
  }
  if (set('SLURM_ARRAY_TASK_ID')) {
    const id = whole('SLURM_ARRAY_TASK_ID', 0);
    if (typeof id === 'string') return id;
    const from = `SLURM_ARRAY_TASK_ID=${id}`;
    if (!set('SLURM_ARRAY_TASK_MIN')) return `--shard auto: ${from} but SLURM_ARRAY_TASK_MIN is not set (Slurm sets both for a job array); write --shard i/n`;
    const min = whole('SLURM_ARRAY_TASK_MIN', 0);
    const step = set('SLURM_ARRAY_TASK_STEP') ? whole('SLURM_ARRAY_TASK_STEP', 1) : 1;
    const count = set('SLURM_ARRAY_TASK_COUNT') ? whole('SLURM_ARRAY_TASK_COUNT', 1) : undefined;
    for (const x of [min, step, count]) if (typeof x === 'string') return x;
    const [lo, by] = [min as number, step as number];
    if (id < lo || (id - lo) % by !== 0) return `--shard auto: ${from} is not in the array's range (SLURM_ARRAY_TASK_MIN=${lo}, step ${by})`;
    const range = `${from} in an array from ${lo} by ${by}`;
    if (set('SLURM_ARRAY_TASK_MAX') && count !== undefined) {
      const max = whole('SLURM_ARRAY_TASK_MAX', 0);
      if (typeof max === 'string') return max;
      // A list such as --array=1,3,8 is not a range: its ids cannot be numbered 1..n from here.
      if ((max - lo) / by + 1 !== count) return `--shard auto: the Slurm array is not an even range (SLURM_ARRAY_TASK_MIN=${lo}, MAX=${max}, STEP=${by}, COUNT=${count}); use --array=a-b[:step], or write --shard i/n`;
    }
    return { index: (id - lo) / by + 1, ...(count !== undefined ? { count: count as number } : {}), from: range };
  }
  return undefined;
}
