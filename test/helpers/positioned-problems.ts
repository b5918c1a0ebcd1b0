// The problems a scenario text has, each as "line:col path: message" ([] when it loads), for
// tests that check a bad value is reported where it was written.
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { resolveMeasureReferences } from '../../src/experiment/expectations.js';
import { MEASURES } from '../../src/measures/registry.js';

export function positionedProblems(yaml: string, file = 's.yaml'): string[] {
  try {
    loadScenario(yaml, file);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

/**
 * The problems of a scenario text as `validate` and `run` find them before any run: the
 * loader's, then the measures its expectations name (resolveMeasureReferences), each as
 * "file:line:col path: message" ([] when it has none).
 */
export function measureReferenceProblems(yaml: string, file: string): string[] {
  try {
    resolveMeasureReferences(loadScenario(yaml, file), MEASURES);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${file}:${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}
