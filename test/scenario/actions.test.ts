// Operator actions in the scenario format (src/scenario/schema-actions.ts and
// semantics-incidents.ts): a bad value is reported where it is written, with what would be right.
import { describe, it, expect } from 'vitest';
import { positionedProblems } from '../helpers/positioned-problems.js';
import { loadScenario } from '../../src/scenario/load.js';

// Line numbers below count from the first line of this text (line 1: "name: t").
const world = (actions: string[]) => [
  'name: t', //                                                           1
  'horizon: 1h', //                                                       2
  'clients:', //                                                          3
  '  app: { arrivals: { kind: constant, rate: 10/s }, identity: { version: "5.0" } }', // 4
  '  legacy: { arrivals: { kind: constant, rate: 5/s } }', //             5
  'server:', //                                                           6
  '  slots: 10', //                                                       7
  '  serviceTime: { kind: exponential, mean: 10ms }', //                  8
  '  dependencies: { auth: { quota: { limit: 100, window: 1m } }, db: {} }', // 9
  'actions:', //                                                         10
  ...actions, //                                                         11…
].join('\n') + '\n';

describe('actions: what loads', () => {
  it('reads triggers and effects with their defaults left to the model', () => {
    const s = loadScenario(world([
      '  - { name: page, when: { signal: success, below: 0.5, for: 2m, after: 15m }, do: { kind: block, population: legacy } }',
      '  - { when: { at: 30m }, do: { kind: undo, action: page } }',
    ]), 's.yaml').base;
    expect(s.actions).toEqual([
      { name: 'page', when: { signal: 'success', below: 0.5, for: 120, after: 900 }, do: { kind: 'block', population: 'legacy' } },
      { when: { at: 1800 }, do: { kind: 'undo', action: 'page' } },
    ]);
  });

  it('is an empty list when the scenario has none', () => {
    expect(loadScenario(world([]).replace('actions:\n', ''), 's.yaml').base.actions).toEqual([]);
  });
});

describe('actions: positioned errors', () => {
  it('a trigger needs a time or a signal, and a signal exactly one threshold', () => {
    expect(positionedProblems(world([
      '  - { when: { for: 2m }, do: { kind: scale, slots: 20 } }',
      '  - { when: { signal: load, above: 3, below: 1 }, do: { kind: scale, slots: 20 } }',
      '  - { when: { at: 5m, after: 1m }, do: { kind: scale, slots: 20 } }',
      '  - { when: { signal: queue, above: 10, route: login }, do: { kind: scale, slots: 20 } }',
    ]))).toEqual([
      expect.stringMatching(/^11:13 actions\[0\]\.when: give at \(act at a fixed time\) or signal with above or below/),
      expect.stringMatching(/^12:46 actions\[1\]\.when\.below: give exactly one of above or below/),
      expect.stringMatching(/^13:30 actions\[2\]\.when\.after: "after" belongs to a signal condition/),
      expect.stringMatching(/^14:48 actions\[3\]\.when\.route: route applies to signal success only/),
    ]);
  });

  it('an unknown signal or effect kind lists the valid ones', () => {
    const got = positionedProblems(world(['  - { when: { signal: latency, above: 1 }, do: { kind: reboot } }']));
    expect(got).toEqual([
      '11:23 actions[0].when.signal: unknown signal "latency": expected one of error-ratio, success, load, queue, quota, utilisation',
      expect.stringMatching(/^11:56 actions\[0\]\.do\.kind: unknown kind "reboot": expected kind: block, disable-route, add-stage, remove-stage, replace-stage, retry-after, scale, fallback, remote-switch, restart or undo/),
    ]);
  });

  it('names what does not exist: a population, a route, a stage, a dependency, an action', () => {
    expect(positionedProblems(world([
      '  - { when: { at: 1m }, do: { kind: block, population: tablet } }',
      '  - { when: { at: 1m }, do: { kind: disable-route, route: signup } }',
      '  - { when: { at: 1m }, do: { kind: remove-stage, stage: admission } }',
      '  - { when: { at: 1m }, do: { kind: fallback, dependency: redis } }',
      '  - { when: { at: 1m }, do: { kind: undo, action: page } }',
      '  - { when: { at: 1m }, do: { kind: remote-switch, population: web } }',
    ]))).toEqual([
      '11:56 actions[0].do.population: no client population "tablet" (the populations are: app, legacy)',
      '12:59 actions[1].do.route: no route "signup" (routes: default)',
      expect.stringMatching(/^13:58 actions\[2\]\.do\.stage: no stage of kind admission in the pipeline/),
      '14:59 actions[3].do.dependency: no dependency "redis" (dependencies: auth, db)',
      '15:51 actions[4].do.action: no action called "page" (actions: block-1, disable-route-2, remove-stage-3, fallback-4, undo-5, remote-switch-6)',
      '16:64 actions[5].do.population: no client population "web" (the populations are: app, legacy)',
    ]);
  });

  it('refuses two actions with one name, an action after the horizon, and a quota signal without a quota', () => {
    expect(positionedProblems(world([
      '  - { name: a, when: { at: 1m }, do: { kind: scale, slots: 20 } }',
      '  - { name: a, when: { at: 2h }, do: { kind: scale, slots: 10 } }',
      '  - { when: { signal: quota, above: 0.7, dependency: db }, do: { kind: fallback, dependency: auth } }',
    ]))).toEqual([
      '12:13 actions[1].name: another action is already called "a": give each action its own name (undo and the results refer to actions by name)',
      '12:28 actions[1].when.at: the action is at 2h, at or after the horizon (1h)',
      '13:54 actions[2].when.dependency: no dependency "db" with a quota (with a quota: auth)',
    ]);
  });

  it('a block must say what it blocks, and a version block needs versions', () => {
    expect(positionedProblems(world([
      '  - { when: { at: 1m }, do: { kind: block, population: legacy, answer: 404 } }',
      '  - { when: { at: 1m }, do: { kind: block, answer: drop } }',
    ]))).toEqual([
      '11:72 actions[0].do.answer: expected 403 or "drop" (got the number 404)',
      '12:29 actions[1].do: say what is blocked: population, versionBelow or ips (or several: a request is blocked when it matches all of them)',
    ]);
    // Checked once the file is well formed: the populations decide whether a version block can match.
    expect(positionedProblems(world([
      '  - { when: { at: 1m }, do: { kind: block, population: legacy, versionBelow: "4.0" } }',
    ]).replace('identity: { version: "5.0" }', 'identity: {}'))).toEqual([
      '11:78 actions[0].do.versionBelow: no population sends a version (identity.version), so a version block would block nothing',
    ]);
  });
});
