// The problems a scenario text has, as "path: message" lines ([] when it loads), for tests
// that check validation messages without caring about positions.
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';

export function scenarioProblems(yaml: string, file = 's.yaml'): string[] {
  try {
    loadScenario(yaml, file);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}
