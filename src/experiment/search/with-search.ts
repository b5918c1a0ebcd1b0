/**
 * An experiment with its search's outcome: the tipping points, and the expectations on them,
 * checked as the others are, once the experiment is whole (a shard's wait for the merge). One
 * place for `run` (after the runs) and `merge` (from the shard that ran the search), so the
 * merged result is the unsharded one. (A module of its own: run-search.ts is imported by the
 * experiment's types, and this imports the experiment.)
 */
import type { ExperimentResult } from '../experiment.js';
import { checkTippingExpectations, resolveMeasureReferences } from '../expectations.js';
import type { SearchOutcome } from './run-search.js';

export function withSearch(x: ExperimentResult, outcome: SearchOutcome): void {
  x.search = outcome;
  const whole = !x.shard || x.shard.count === 1;
  if (whole) x.expectations.push(...checkTippingExpectations(resolveMeasureReferences(x.loaded, x.measures).expectations, outcome));
}
