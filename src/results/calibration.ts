/**
 * calibration.json: what `retrystorm calibrate` found, as one typed document that the text
 * (src/report/calibration-text.ts), the page and the tests read: each parameter's fitted
 * value and interval, how close each observed series came, where the fit misses, the curves
 * to draw, and every trial in order. Numbers are rounded as summary.json's are.
 */
import type { CalibrationOutcome } from '../experiment/calibrate/run-calibrate.js';
import { roundMeasured } from './numbers.js';

export const CALIBRATION_FORMAT = 'retrystorm-calibration/1';

export interface CalibrationResults extends CalibrationOutcome {
  format: typeof CALIBRATION_FORMAT;
  scenario: string;
  /** The scenario file as named on the command line. */
  file: string;
  /** Where the fitted scenario was written (beside the original). */
  fitted: string;
}

export function calibrationResults(outcome: CalibrationOutcome, scenario: string, file: string, fitted: string): CalibrationResults {
  return roundMeasured({ format: CALIBRATION_FORMAT, scenario, file, fitted, ...outcome }, ['seed', 'seeds', 'intervalSeeds', 'trials', 'runs', 'intervals']);
}
