/**
 * Whether a parameter takes whole numbers only (slots, instances), as the scenario's own
 * validation tells it: a value halfway between two whole ones is refused. One rule for the
 * tipping-point search, which snaps its steps to whole numbers, and for the calibration, which
 * rounds its trials (a search once tried 5.8 slots and stopped with a validation error).
 */
import type { LoadedScenario, ParameterSetting } from '../scenario/load.js';
import { ScenarioError } from '../scenario/problems.js';

export function takesWholeNumbers(loaded: LoadedScenario, variant: string, p: Omit<ParameterSetting, 'value'> & { from: number; to: number }): boolean {
  if (p.kind !== 'number' || !Number.isInteger(p.from) || !Number.isInteger(p.to)) return false;
  try {
    loaded.scenarioWith(variant, [{ parameter: p.parameter, path: p.path, kind: p.kind, value: p.from + 0.5 }]);
    return false;
  } catch (e) {
    if (e instanceof ScenarioError) return true;
    throw e;
  }
}
