/**
 * A small calibration for the calibration.html tests, made the way users make one: an incident
 * drawn from a known world (10 requests/s, seed 99) with a stretch the model cannot make (the
 * requests tripled from 3:20 to 4:20, a burst no arrival rate explains, so the fit misses it),
 * and a team's scenario that believes 14/s, fitted on one parameter with the smallest budget
 * the scenario format allows (about 2 s on one thread). Its question carries markup, to check
 * the page shows scenario text as text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';
import { runCalibration, type CalibrateOptions } from '../../src/experiment/calibrate/run-calibrate.js';
import { calibrationResults, type CalibrationResults } from '../../src/results/calibration.js';
import { tempDir } from './fixtures.js';

export const HOSTILE_QUESTION = 'Which world had the incident? </script><script>window.__pwned=1;alert(1)</script><img src=x onerror="alert(2)">';

const WORLD = (rate: string) => `name: small-incident
question: ${JSON.stringify(HOSTILE_QUESTION)}
horizon: 5m
seed: 1
measures: { bucket: 20s, hold: 1m }
clients:
  app:
    clients: 5000
    arrivals: { kind: constant, rate: ${rate} }
    retry: { maxAttempts: 3, timeout: 1s }
server:
  slots: 2
  queue: 30
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: capacity-cut, at: 1m, duration: 30s, slots: 0 }
`;

const CALIBRATE = `observed:
  requests: { file: incident.csv, format: csv, columns: { value: attempts }, series: attempts, unit: per-second }
  p50: { file: incident.csv, format: csv, columns: { value: p50 }, series: latency_p50_ms, unit: ms }
calibrate:
  parameters:
    clients.app.arrivals.rate: { from: 4/s, to: 20/s }
  seeds: 1
  budget: 10
  intervalSeeds: 8
`;

/** A fresh folder holding incident.csv and team.yaml (the scenario to calibrate). */
export function calibrationScenarioFolder(): string {
  const dir = tempDir('rs-calibration-');
  const truth = loadScenario(WORLD('10/s'), join(dir, 'truth.yaml'));
  const r = runOne(truth.base, 'base', 0, 99);
  const rows = ['time,attempts,p50'];
  r.columns.attempts.forEach((a, i) => rows.push(`${i * r.bucketS},${(a / r.bucketS) * (i >= 10 && i < 13 ? 3 : 1)},${r.columns.latency_p50_ms[i]}`));
  writeFileSync(join(dir, 'incident.csv'), `${rows.join('\n')}\n`);
  writeFileSync(join(dir, 'team.yaml'), WORLD('14/s') + CALIBRATE);
  return dir;
}

/** The calibration of team.yaml on the calling thread, as the command would write it into calibration.json. */
export async function smallCalibration(opts: CalibrateOptions = {}): Promise<CalibrationResults> {
  const dir = calibrationScenarioFolder();
  const loaded = loadScenarioFile(join(dir, 'team.yaml'));
  const outcome = await runCalibration(loaded, loaded.calibrate!, { workers: 0, ...opts });
  return calibrationResults(outcome, loaded.base.name, 'team.yaml', 'team.fitted.yaml');
}
