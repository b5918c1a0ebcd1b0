// The problems a scenario text has, each as "line:col path: message" ([] when it loads), for
// tests that check a bad value is reported where it was written.
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';

export function positionedProblems(yaml: string, file = 's.yaml'): string[] {
  try {
    loadScenario(yaml, file);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}
