/**
 * Everything `retrystorm diff` says, in one value: the results' diff, the scenarios' diff
 * (when both sides' scenarios could be read) and, from step to step, the guards on change.
 * The terminal, JSON and markdown writers each render this value; nothing is recomputed.
 */
import type { ResultsDiff } from './results-diff.js';
import type { ScenarioDiff } from './scenario-diff.js';
import type { GuardResult } from './guards.js';

export interface DiffReport {
  results: ResultsDiff;
  /** null when a side's scenario could not be read again (then `scenarioNote` says why). */
  scenario: ScenarioDiff | null;
  scenarioNote: string | null;
  /** The head's guards on change (`worsenBy`), checked against the base. */
  guards: GuardResult[];
}
