// A population's role (user, partner, internal, attacker) and a partner's contract, as the
// loader accepts and refuses them: one clear problem where it is written, and whose outcomes
// the verdict judges (the subject, the partners).
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem } from '../../src/scenario/problems.js';
import { latencyJudged, partnersOf, subjectOf } from '../../src/scenario/subject.js';

// One population; line 5 is its role, line 6 its contract (cases replace them).
const BASE = [
  'name: roles', //                                               1
  'horizon: 10m', //                                              2
  'clients:', //                                                  3
  '  api:', //                                                    4
  '    role: user', //                                            5
  '    description: an API client', //                            6
  '    arrivals: { kind: constant, rate: 10/s }', //              7
  'server:', //                                                   8
  '  slots: 8', //                                                9
  '  serviceTime: { kind: exponential, mean: 100ms }', //         10
];

const source = (replace: Record<number, string> = {}, extra: string[] = []) => [...BASE.map((l, i) => replace[i + 1] ?? l), ...extra].join('\n') + '\n';

/** Every problem as the CLI prints it; [] when the file loads. */
function printed(src: string): string[] {
  try {
    loadScenario(src, 'r.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map(formatProblem);
    throw e;
  }
  return [];
}

const CONTRACT = '    contract: { limit: 100, window: 60s }';

describe('roles', () => {
  it('refuses a misspelt role with the closest one and the list', () => {
    expect(printed(source({ 5: '    role: partnr' }))).toEqual([
      'r.yaml:5:11  clients.api.role: unknown role "partnr" (did you mean "partner"?): expected one of user, partner, internal, attacker',
    ]);
  });

  it('a partner needs a contract, said at its role; only a partner has one', () => {
    expect(printed(source({ 5: '    role: partner' }))).toEqual([
      'r.yaml:5:11  clients.api.role: a partner needs a contract: what it is entitled to, e.g. contract: { limit: 100, window: 60s } (100 requests in any minute); without one its refusals cannot be told from an outage',
    ]);
    expect(printed(source({ 6: CONTRACT }))).toEqual([
      'r.yaml:6:15  clients.api.contract: only a partner has a contract (this population\'s role is user): set role: partner, or remove contract',
    ]);
    expect(printed(source({ 5: '    role: partner', 6: '    contract: { limit: 0, window: 60s }' }))).toEqual([
      'r.yaml:6:24  clients.api.contract.limit: must be at least 1 (requests; got the number 0)',
    ]);
  });

  it('loads a scenario whose only population is a partner: the verdict has no users but judges the partner', () => {
    const loaded = loadScenario(source({ 5: '    role: partner', 6: CONTRACT }), 'r.yaml');
    const s = loaded.variants[0].scenario;
    expect(s.clients.api.contract).toEqual({ limit: 100, window: 60 });
    expect(subjectOf(s)).toEqual([false]);
    expect(partnersOf(s)).toEqual([true]);
  });

  it('internal traffic is among the verdict\'s users; attackers alone leave nobody to judge', () => {
    const s = loadScenario(source({ 5: '    role: internal' }), 'r.yaml').variants[0].scenario;
    expect(subjectOf(s)).toEqual([true]);
    expect(printed(source({ 5: '    role: attacker' }))).toEqual([
      'r.yaml:3:1  clients: every population has role attacker: give at least one population role user (or internal, or partner with its contract), whose outcomes the verdict judges',
    ]);
  });

  it('compare.for narrows the partners as it narrows the users', () => {
    const extra = ['  batch:', '    role: internal', '    arrivals: { kind: constant, rate: 1/s }'];
    // The partner api (line 4 on), then the internal batch, then the server and compare.for.
    const src = (forLine: string) => [...BASE.slice(0, 4), '    role: partner', CONTRACT, BASE[6], ...extra, ...BASE.slice(7), 'compare:', forLine].join('\n') + '\n';
    const onlyBatch = loadScenario(src('  for: { populations: [batch] }'), 'r.yaml').variants[0].scenario;
    expect([subjectOf(onlyBatch), partnersOf(onlyBatch)]).toEqual([[false, true], [false, false]]);
    const onlyPartner = loadScenario(src('  for: { populations: [api] }'), 'r.yaml').variants[0].scenario;
    expect([subjectOf(onlyPartner), partnersOf(onlyPartner)]).toEqual([[false, false], [true, false]]);
  });

  it('refuses a bucket the contract\'s window is not a whole number of (the partner measures would read another contract)', () => {
    const src = (bucket: string) => source({ 5: '    role: partner', 6: CONTRACT }, [`measures: { bucket: ${bucket} }`]);
    expect(printed(src('1s'))).toEqual([]);
    expect(printed(src('45s'))).toEqual([
      'r.yaml:6:37  clients.api.contract.window: the partner measures count the contract\'s window in whole buckets, and 1m is not a whole number of the 45s buckets (measures.bucket): set measures.bucket to a divisor of 1m, a tenth of it or less (e.g. 6s)',
    ]);
    expect(printed(src('2m'))).toEqual([
      'r.yaml:6:37  clients.api.contract.window: the partner measures count the contract\'s window in whole buckets, and 1m is shorter than the 2m buckets (measures.bucket): set measures.bucket to a divisor of 1m, a tenth of it or less (e.g. 6s)',
    ]);
  });
});

describe('latencyJudged: whose latency the verdict reads', () => {
  it('leaves internal traffic out when users are there too, and keeps it when it is all there is', () => {
    expect(latencyJudged(['user', 'internal', 'user'], [true, true, true])).toEqual([true, false, true]);
    expect(latencyJudged(['internal', 'internal'], [true, true])).toEqual([true, true]);
    // A user population outside the verdict (compare.for) does not count as "users are there".
    expect(latencyJudged(['user', 'internal'], [false, true])).toEqual([false, true]);
    expect(latencyJudged(['partner', 'user'], [false, true])).toEqual([false, true]);
  });
});
