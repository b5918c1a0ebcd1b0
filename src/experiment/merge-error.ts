/**
 * The error of merge, in a module of its own that imports nothing: the command line tells it
 * apart from a bug (exit 2, one line) without loading the merge and the scenario loader, which
 * most commands never use.
 */

/** Folders that are not the shards of one experiment: bad input, said in one line (exit 2). */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/**
 * Runs made by another build of retrystorm (tool-build.ts): refused by merge like any bad
 * shard, but `run --reuse` only notes it and simulates every run (nothing it could take is
 * known to be what this build computes).
 */
export class OtherBuildError extends MergeError {
  /** "made by retrystorm A, and this is B (version+code digest)": what every message about it says. */
  readonly builds: string;

  constructor(file: string, made: string, current: string) {
    const builds = `made by retrystorm ${made}, and this is ${current} (version+code digest)`;
    super(`${file} was ${builds}: runs of different builds cannot be merged or reused, since their code may compute other results; rerun them with this build`);
    this.name = 'OtherBuildError';
    this.builds = builds;
  }
}

/**
 * Shards of a split run given without the rest of their split: merge wants every shard;
 * `run --reuse`, which takes one folder, says to merge them first.
 */
export class IncompleteSplitError extends MergeError {
  constructor(message: string) {
    super(message);
    this.name = 'IncompleteSplitError';
  }
}
