/**
 * The `calibrate:` block (docs/calibrate.md): what it may fit is checked as a sweep's or a
 * search's parameter is, before anything runs, each problem once at its own key: a path the
 * scenario does not set, an experiment key, a range in another kind of unit than the value
 * written, an empty range, a variant or an observed series that does not exist, no observed
 * series at all, and a range end the world cannot take. A good block is read into numbers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, type Problem } from '../../src/scenario/problems.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-calibrate-block-'));
const scenarioFile = join(dir, 'scenario.yaml');
writeFileSync(join(dir, 'incident.csv'), 'time,value\n0,1\n60,0.9\n120,1\n');

const WORLD = `name: t
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
variants:
  as-is: {}
  no-retries: { overlay: { clients: { app: { retry: { maxAttempts: 1 } } } } }
`;
const OBSERVED = `observed:
  success: { file: incident.csv, format: csv, series: success_ratio, unit: ratio }
`;

function load(calibrate: string, observed = OBSERVED) {
  return loadScenario(`${WORLD}${observed}calibrate:\n${calibrate.split('\n').map((l) => `  ${l}`).join('\n')}\n`, scenarioFile);
}

function problemsOf(calibrate: string, observed = OBSERVED): Array<[string, string, number]> {
  try {
    load(calibrate, observed);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p: Problem) => [p.path, p.message, p.line]);
    throw e;
  }
  throw new Error('loaded without a problem');
}

describe('the calibrate block', () => {
  it('is read into numbers: each parameter\'s range and start in its unit, the first variant, every observed series', () => {
    const c = load('parameters:\n  server.slots: { from: 4, to: 20 }\n  server.serviceTime.mean: { from: 50ms, to: 1s }\nseeds: 2').calibrate!;
    expect(c.parameters.map((p) => [p.parameter, p.kind, p.from, p.to, p.start])).toEqual([
      ['server.slots', 'number', 4, 20, 10],
      ['server.serviceTime.mean', 'duration', 0.05, 1, 0.1],
    ]);
    expect([c.variant, c.series, c.seeds, c.budget, c.intervalSeeds, c.level]).toEqual(['as-is', ['success'], 2, 80, 24, 0.95]);
  });

  it('refuses each wrong parameter once, at its own key', () => {
    const ps = problemsOf([
      'parameters:',
      '  server.queue: { from: 10, to: 100 }',
      '  seeds: { from: 1, to: 4 }',
      '  server.slots: { from: 1s, to: 10s }',
      '  server.serviceTime.mean: { from: 1s, to: 100ms }',
    ].join('\n'));
    expect(ps.map(([path, message]) => [path, message])).toEqual([
      ['calibrate.parameters.server.queue', 'the scenario sets no value at "server.queue": calibration moves a value the base scenario already has (write your best guess there; the fit starts from it)'],
      ['calibrate.parameters.seeds', '"seeds" cannot be fitted: fit a value of the world (clients, server, services, faults…)'],
      ['calibrate.parameters.server.slots.from', 'the scenario writes 10 at "server.slots", a number; the range is a duration: give the range in the unit the scenario uses'],
      ['calibrate.parameters.server.serviceTime.mean.to', 'the range is empty: "to" (100ms) must be larger than "from" (1s)'],
    ]);
  });

  it('refuses a variant or a series that does not exist, with the likely one', () => {
    const ps = problemsOf('parameters: { server.slots: { from: 4, to: 20 } }\nvariant: no-retry\nseries: [sucess]');
    expect(ps.map(([path, message]) => [path, message])).toEqual([
      ['calibrate.variant', 'no variant named "no-retry": did you mean "no-retries"? (the variants are as-is, no-retries)'],
      ['calibrate.series[0]', 'no observed series named "sucess": did you mean "success"? (observed: success)'],
    ]);
  });

  it('needs an observed block to match', () => {
    const ps = problemsOf('parameters: { server.slots: { from: 4, to: 20 } }', '');
    expect(ps.map(([path, message]) => [path, message])).toEqual([['calibrate', 'calibration matches the observed series: add an `observed:` block naming the incident\'s files (docs/traces.md)']]);
  });

  it('refuses a range end the world cannot take, before any run', () => {
    const ps = problemsOf('parameters: { server.slots: { from: 0, to: 20 } }');
    expect(ps).toHaveLength(1);
    expect(ps[0][0]).toBe('calibrate.parameters.server.slots.from');
    expect(ps[0][1]).toMatch(/^server\.slots: .*\(with every parameter at its "from": server\.slots = 0\)$/);
  });

  it('is an experiment block: a variant\'s overlay cannot set it', () => {
    const text = `${WORLD.replace("as-is: {}", "as-is: { overlay: { calibrate: { parameters: { server.slots: { from: 1, to: 2 } } } } }")}${OBSERVED}`;
    expect(() => loadScenario(text, scenarioFile)).toThrow(ScenarioError);
  });
});
