/**
 * `--shard auto` and `--shard auto/n`: the shard taken from the batch engine's environment
 * (Kubernetes Indexed Job, Slurm job array, or RETRYSTORM_SHARD_INDEX), and every way that
 * can go wrong refused with one line. Running shards as processes with these variables and
 * merging them is tested in test/experiment/cluster-examples.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { shardFromArg } from '../../src/cli/shard-arg.js';
import { inShard } from '../../src/experiment/expand.js';

describe('--shard i/n is read as before', () => {
  it('takes i/n and refuses what parseShard refuses', () => {
    expect(shardFromArg('2/4', { JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 2, count: 4 }); // written wins; env not read
    expect(shardFromArg('5/4', {})).toMatch(/between 1 and n/);
  });
});

describe('Kubernetes Indexed Job: JOB_COMPLETION_INDEX is 0-based', () => {
  it('pod k of n runs shard k+1 of n', () => {
    for (let k = 0; k < 8; k++) expect(shardFromArg('auto/8', { JOB_COMPLETION_INDEX: String(k) })).toEqual({ index: k + 1, count: 8 });
  });

  it('needs n written: a pod is not told its Job\'s completions', () => {
    expect(shardFromArg('auto', { JOB_COMPLETION_INDEX: '3' })).toMatch(/^--shard auto: JOB_COMPLETION_INDEX=3 gives the index but not the number of shards; write --shard auto\/n/);
  });

  it('refuses an index beyond n, and one that is not a whole number', () => {
    expect(shardFromArg('auto/8', { JOB_COMPLETION_INDEX: '8' })).toBe('--shard auto/8: JOB_COMPLETION_INDEX=8 makes this shard 9, but there are only 8 shards');
    expect(shardFromArg('auto/8', { JOB_COMPLETION_INDEX: '-1' })).toMatch(/JOB_COMPLETION_INDEX must be a whole number ≥ 0 \(got "-1"\)/);
    expect(shardFromArg('auto/8', { JOB_COMPLETION_INDEX: 'two' })).toMatch(/JOB_COMPLETION_INDEX must be a whole number ≥ 0 \(got "two"\)/);
  });
});

/** What Slurm sets in each task of `--array=lo-hi:step`. */
function slurm(id: number, lo: number, hi: number, step = 1): Record<string, string> {
  const count = Math.floor((hi - lo) / step) + 1;
  return {
    SLURM_ARRAY_TASK_ID: String(id),
    SLURM_ARRAY_TASK_MIN: String(lo),
    SLURM_ARRAY_TASK_MAX: String(lo + (count - 1) * step),
    SLURM_ARRAY_TASK_STEP: String(step),
    SLURM_ARRAY_TASK_COUNT: String(count),
  };
}

describe('Slurm job array: index and count from SLURM_ARRAY_TASK_*', () => {
  it('--array=0-7, 1-8 and 10-24:2 all number their tasks as shards 1..8 of 8', () => {
    for (const [lo, step] of [[0, 1], [1, 1], [10, 2]]) {
      const ids = Array.from({ length: 8 }, (_, i) => lo + i * step);
      expect(ids.map((id) => shardFromArg('auto', slurm(id, lo, lo + 7 * step, step)))).toEqual(ids.map((_, i) => ({ index: i + 1, count: 8 })));
    }
  });

  it('every run falls to exactly one task of any array range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 100 }), (lo, n, step, run) => {
        const owners = Array.from({ length: n }, (_, i) => shardFromArg('auto', slurm(lo + i * step, lo, lo + (n - 1) * step, step)))
          .filter((s) => typeof s !== 'string' && inShard({ index: run, variant: 'v', point: 0, seed: 1 }, s));
        expect(owners).toHaveLength(1);
      }),
    );
  });

  it('accepts a matching auto/n and refuses a different one', () => {
    expect(shardFromArg('auto/4', slurm(2, 0, 3))).toEqual({ index: 3, count: 4 });
    expect(shardFromArg('auto/5', slurm(2, 0, 3))).toBe('--shard auto/5: SLURM_ARRAY_TASK_ID=2 in an array from 0 by 1 says 4 shards, not 5');
  });

  it('refuses an array that is a list rather than a range, and an id outside the range', () => {
    // --array=1,3,8: MIN 1, MAX 8, COUNT 3.
    const list = { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '8', SLURM_ARRAY_TASK_COUNT: '3' };
    expect(shardFromArg('auto', list)).toMatch(/^--shard auto: the Slurm array is not an even range \(SLURM_ARRAY_TASK_MIN=1, MAX=8, STEP=1, COUNT=3\)/);
    expect(shardFromArg('auto', { ...slurm(3, 0, 6, 2), SLURM_ARRAY_TASK_ID: '3' })).toMatch(/SLURM_ARRAY_TASK_ID=3 is not in the array's range/);
    expect(shardFromArg('auto', { SLURM_ARRAY_TASK_ID: '3' })).toMatch(/SLURM_ARRAY_TASK_MIN is not set/);
  });
});

describe('RETRYSTORM_SHARD_INDEX, and what is refused whatever the source', () => {
  it('reads a 1-based index', () => {
    expect(shardFromArg('auto/3', { RETRYSTORM_SHARD_INDEX: '3' })).toEqual({ index: 3, count: 3 });
    expect(shardFromArg('auto/3', { RETRYSTORM_SHARD_INDEX: '0' })).toMatch(/RETRYSTORM_SHARD_INDEX must be a whole number ≥ 1 \(got "0"\)/);
  });

  it('refuses no source, two sources, and a bad n, each in one line', () => {
    const cases = [
      [shardFromArg('auto/4', {}), /^--shard auto\/4: no shard index in the environment; set JOB_COMPLETION_INDEX .* or write --shard i\/n$/],
      [shardFromArg('auto/4', { JOB_COMPLETION_INDEX: '' }), /no shard index in the environment/],
      [shardFromArg('auto', { JOB_COMPLETION_INDEX: '1', ...slurm(1, 0, 3) }), /JOB_COMPLETION_INDEX and SLURM_ARRAY_TASK_ID are both set/],
      [shardFromArg('auto/0', { JOB_COMPLETION_INDEX: '0' }), /takes a whole number of shards n ≥ 1 \(got "auto\/0"\)/],
      [shardFromArg('auto/x', { JOB_COMPLETION_INDEX: '0' }), /takes a whole number of shards/],
      [shardFromArg('automatic', { JOB_COMPLETION_INDEX: '0' }), /--shard takes i\/n/],
    ] as const;
    for (const [message, pattern] of cases) {
      expect(typeof message).toBe('string');
      expect(message).toMatch(pattern);
      expect(message as string).not.toContain('\n');
    }
  });
});
