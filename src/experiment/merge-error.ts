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
