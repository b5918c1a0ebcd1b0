/**
 * The error of reading a results folder, in a module of its own that imports nothing: the
 * command line tells it apart from a bug (exit 2, one line) without loading the results'
 * schema (zod), which commands that read no results never need.
 */

/** A results folder, or a file in it, that cannot be read as one; the message is one line, for people. */
export class ResultsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultsError';
  }
}
