/**
 * The `search:` block: what it accepts, and each bad value refused where it was written, with
 * what would be right; and a variant built at a searched value, validated like any scenario.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { positionedProblems } from '../helpers/positioned-problems.js';

const BASE = [
  'name: t', //                                        1
  'horizon: 10m', //                                   2
  'clients:', //                                       3
  '  app:', //                                         4
  '    clients: 100', //                               5
  '    arrivals: { kind: constant, rate: 50/s }', //   6
  'server:', //                                        7
  '  slots: 10', //                                    8
  '  serviceTime: { kind: exponential, mean: 20ms }', // 9
  'faults:', //                                       10
  '  - kind: dependency-down', //                     11
  '    at: 1m', //                                    12
  '    duration: 30s', //                             13
  'variants:', //                                     14
  '  as-is: {}', //                                   15
  '  short:', //                                      16
  '    overlay: { horizon: 5m }', //                  17
].join('\n');

const withSearch = (...lines: string[]) => `${BASE}\nsearch:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;

describe('the search block', () => {
  it('reads a duration, a rate or a number, with the defaults said in the docs', () => {
    const outage = loadScenario(withSearch('parameter: faults[0].duration', 'range: { from: 10s, to: 4m }', 'precision: 15s'));
    expect(outage.search).toEqual({ parameter: 'faults[0].duration', path: ['faults', 0, 'duration'], kind: 'duration', from: 10, to: 240, precision: 15, level: 0.5, budget: 200 });
    const rate = loadScenario(withSearch('parameter: clients.app.arrivals.rate', 'range: { from: 10/s, to: 1000/min }', 'level: 0.9', 'budget: 40'));
    expect(rate.search).toMatchObject({ kind: 'rate', from: 10, precision: (1000 / 60 - 10) / 20, level: 0.9, budget: 40 });
    expect(loadScenario(withSearch('parameter: load', 'range: { from: 0.5, to: 2 }')).search).toMatchObject({ path: 'load', kind: 'number', from: 0.5, to: 2 });
  });

  it('builds a variant at a searched value, the overlay kept and the value written in its unit', () => {
    const loaded = loadScenario(withSearch('parameter: faults[0].duration', 'range: { from: 10s, to: 4m }'));
    const s = loaded.scenarioAt('short', loaded.search!, 93.5);
    expect(s.faults[0]).toMatchObject({ kind: 'dependency-down', at: 60, duration: 93.5 });
    expect(s.horizon).toBe(300);
    const load = loadScenario(withSearch('parameter: load', 'range: { from: 0.5, to: 2 }'));
    const doubled = load.scenarioAt('as-is', load.search!, 2);
    expect(doubled.clients.app.arrivals).toMatchObject({ kind: 'constant', rate: 100 });
  });

  it('refuses a value the scenario cannot take when asked for it, saying which value and variant', () => {
    const loaded = loadScenario(withSearch('parameter: server.slots', 'range: { from: 1, to: 20 }'));
    expect(() => loaded.scenarioAt('as-is', loaded.search!, 2.5)).toThrow(ScenarioError);
    expect(() => loaded.scenarioAt('as-is', loaded.search!, 2.5)).toThrow(/server\.slots: .*whole number.*\(at server\.slots = 2\.5, variant "as-is"\)/);
  });

  it.each([
    [['parameter: faults[0].length', 'range: { from: 10s, to: 4m }'], '19:14 search.parameter: the scenario sets no value at "faults[0].length": a search varies a value the base scenario already has'],
    [['parameter: seeds', 'range: { from: 1, to: 4 }'], '19:14 search.parameter: "seeds" cannot be searched: search a value of the world (clients, server, faults, horizon…)'],
    [['parameter: faults[0]duration', 'range: { from: 10s, to: 4m }'], '19:14 search.parameter: "faults[0]duration" is not a parameter path: a "." is missing before "duration"'],
    [['parameter: faults[0].duration', 'range: { from: 4m, to: 4m }'], '20:26 search.range.to: the range is empty: "to" (4m) must be larger than "from" (4m)'],
    [['parameter: faults[0].duration', 'range: { from: 10s, to: 40/s }'], '20:27 search.range.to: the range\'s ends must be the same kind of value (got a duration and a rate): e.g. from: 1m, to: 30m'],
    [['parameter: faults[0].duration', 'range: { from: ten, to: 4m }'], '20:18 search.range.from: "ten" is neither a duration ("5m"), a rate ("800/s") nor a number'],
    [['parameter: faults[0].duration', 'range: { from: 10s, to: 4m }', 'precision: 5/s'], '21:14 search.precision: the precision must be in the range\'s kind of value (a duration; got a rate), e.g. 30s'],
    [['parameter: faults[0].duration', 'range: { from: 10s, to: 4m }', 'level: 1'], '21:10 search.level: the level is a probability strictly between 0 and 1, e.g. 0.5 (got the number 1)'],
    [['parameter: faults[0].duration', 'range: { from: 10s, to: 4m }', 'budget: 10'], '21:11 search.budget: a search needs at least 20 runs (its coarse pass: 5 values x 4 seeds; got the number 10)'],
    [['parameter: load', 'range: { from: 0, to: 2 }'], '20:18 search.range.from: load multiplies every arrival rate: search numbers above 0, e.g. from: 0.5, to: 3'],
  ])('refuses %j where it was written', (lines, problem) => {
    expect(positionedProblems(withSearch(...lines))).toEqual([problem]);
  });

  it('refuses a range end the scenario cannot take, at that end, naming the field it breaks', () => {
    const problems = positionedProblems(withSearch('parameter: server.slots', 'range: { from: 0, to: 20 }'));
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/^20:18 search\.range\.from: server\.slots: .*\(at server\.slots = 0/);
  });

  it('cannot be set by a variant\'s overlay: the search is the experiment\'s', () => {
    const text = `${BASE.replace('overlay: { horizon: 5m }', 'overlay: { search: { parameter: load, range: { from: 1, to: 2 } } }')}\n`;
    expect(positionedProblems(text).join('\n')).toMatch(/17:16 variants\.short\.overlay\.search: .*belongs to the whole experiment/);
  });
});
