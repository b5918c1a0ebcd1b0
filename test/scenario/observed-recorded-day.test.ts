/**
 * The observed incident shipped beside scenarios/recorded-day.yaml: the file is what
 * scripts/make-recorded-day.mjs writes (deterministic, through its own generator in
 * scripts/recorded-day-incident.mjs), and the scenario reads both of its columns as 240
 * minutes from the run's start (t0 at 10:00, where the replayed window starts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';

const FILE = 'scenarios/recorded-day-incident.csv';

describe('scenarios/recorded-day.yaml observed', () => {
  it('the incident file is what scripts/make-recorded-day.mjs writes', () => {
    const before = readFileSync(FILE, 'utf8');
    execFileSync(process.execPath, ['scripts/make-recorded-day.mjs']);
    expect(readFileSync(FILE, 'utf8')).toBe(before);
  });

  it('reads the success ratio and the request rate as 240 minutes from the run\'s start', () => {
    const o = loadScenarioFile('scenarios/recorded-day.yaml').base.observed!;
    expect(Object.keys(o)).toEqual(['success', 'requests']);
    for (const e of Object.values(o)) {
      expect(e.data!.values.length).toBe(240);
      expect(e.data!.stepS).toBe(60);
      expect(e.data!.startS).toBe(0);
    }
    // 12:30, the push: 150 minutes in.
    expect(o.success.data!.values[149]).toBeGreaterThan(0.99);
    expect(o.success.data!.values[150]).toBeLessThan(0.4);
  });
});
