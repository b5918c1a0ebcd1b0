/**
 * Turns a scenario's `measures:` block into the settings the measures module takes, so the
 * scenario format and the measures can each keep the names that read best in their place.
 */
import type { Scenario } from '../scenario/schema.js';
import { DEFAULT_MEASURE_SETTINGS, type MeasureSettings } from '../measures/settings.js';

export function measureSettings(s: Scenario): MeasureSettings {
  const m = s.measures;
  return {
    ...DEFAULT_MEASURE_SETTINGS,
    warmupS: m.warmup,
    holdS: m.hold,
    ...(m.healthWindow !== undefined ? { healthWindowS: m.healthWindow } : {}),
    saturation: m.saturation,
    successRatioDrop: m.successRatioDrop,
    loadExcess: m.loadExcess,
    perceivedOutageThreshold: m.perceivedOutageThreshold,
    relapseUpS: m.relapseUp,
    ...(m.baseline !== undefined ? { baselineRate: m.baseline } : {}),
  };
}
