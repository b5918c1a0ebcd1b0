/**
 * The min-version stage (MinVersion in src/model/server/stages.ts, story 000): requests from
 * populations whose identity.version is below the minimum get 426 Upgrade Required, not
 * retryable, before any work; newer versions and populations that send none are served.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import { runOne } from '../../../src/experiment/run-one.js';
import { FAILURE_CAUSES, type FailureCause, type RunRecord } from '../../../src/model/series.js';
import { OUTCOME_UNSUPPORTED_VERSION, statusOf, retryableFlagOf, responseContract } from '../../../src/model/outcomes.js';
import { compareVersions } from '../../../src/model/version.js';
import { scenarioProblems } from '../../helpers/scenario-problems.js';

/**
 * Three populations of 20 actions/s for 2 minutes, each on its own route so their actions
 * can be told apart: "old" sends 4.2.0, "new" 4.10.0 (below 4.3.0 if compared as text),
 * "unversioned" sends none. Each layer given retries up to 3 tries at once.
 */
const world = (opts: { oldLayer?: string; oldVersion?: string; minimum?: string; extraStage?: string; rejectionCost?: string } = {}) => `
name: min-version
horizon: 3m
measures: { bucket: 1s }
clients:
  old:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 20/s }, { at: 120s, rate: 0/s }] }
    retry: ${opts.oldLayer ?? '{ maxAttempts: 3, backoff: { kind: none } }'}
    identity: { route: old, version: "${opts.oldVersion ?? '4.2.0'}" }
  new:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 20/s }, { at: 120s, rate: 0/s }] }
    retry: { maxAttempts: 3, backoff: { kind: none } }
    identity: { route: new, version: "4.10.0" }
  unversioned:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 20/s }, { at: 120s, rate: 0/s }] }
    retry: { maxAttempts: 3, backoff: { kind: none } }
    identity: { route: unversioned }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  rejectionCost: ${opts.rejectionCost ?? '0s'}
  stages:
${opts.extraStage ?? ''}
    - { kind: min-version, minimum: "${opts.minimum ?? '4.3.0'}" }
`;

const run = (yaml: string) => simulate(loadScenario(yaml, 'min-version.yaml').base, 1);
const total = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);
const failures = (r: RunRecord, cause: FailureCause) => total(r.series.failures[FAILURE_CAUSES.indexOf(cause)]);

function route(r: RunRecord, name: string): { ok: number; failed: number } {
  const i = r.routes.indexOf(name);
  return { ok: total(r.series.routeActionsOk[i]), failed: total(r.series.routeActionsFailed[i]) };
}

describe('min-version: the 426 contract', () => {
  it('answers 426, not retryable, whatever the overload contract says', () => {
    expect(statusOf(OUTCOME_UNSUPPORTED_VERSION)).toBe(426);
    expect(retryableFlagOf(OUTCOME_UNSUPPORTED_VERSION)).toBe(false);
    const w = responseContract({ status: 429, retryable: true });
    expect(statusOf(OUTCOME_UNSUPPORTED_VERSION, w)).toBe(426);
    expect(retryableFlagOf(OUTCOME_UNSUPPORTED_VERSION, w)).toBe(false);
  });

  it('compares versions number by number, a missing part counting as 0', () => {
    expect(compareVersions('4.2.0', '4.3.0')).toBeLessThan(0);
    expect(compareVersions('4.10.0', '4.3.0')).toBeGreaterThan(0); // "4.10.0" < "4.3.0" as text
    expect(compareVersions('10.0', '9.9.9')).toBeGreaterThan(0);
    expect(compareVersions('4.3', '4.3.0')).toBe(0);
    expect(compareVersions('4.3.0.1', '4.3')).toBeGreaterThan(0);
    expect(compareVersions('4.2.99', '4.3')).toBeLessThan(0);
  });
});

describe('min-version: what the simulation does', () => {
  it('refuses every request of the old version once (426 is not retried by default) and serves the others', () => {
    const r = run(world());
    const old = route(r, 'old'), fresh = route(r, 'new'), none = route(r, 'unversioned');
    // ~2,400 actions per population over 2 minutes
    for (const p of [old, fresh, none]) expect(p.ok + p.failed).toBeGreaterThan(2200);
    expect(old.ok).toBe(0);
    expect(fresh.failed).toBe(0);
    expect(none.failed).toBe(0);
    const refused = failures(r, 'unsupported-version');
    expect(refused).toBe(old.failed); // one try each: the default retryOn has no 426
    expect(r.totals.attempts).toBe(old.failed + fresh.ok + none.ok);
    expect(r.attemptsPerAction[1]).toBe(r.totals.actionsOk + r.totals.actionsFailed);
  });

  it('is cheap: a refused request gets no slot and no work, only the rejectionCost', () => {
    const free = run(world());
    const served = route(free, 'new').ok + route(free, 'unversioned').ok;
    expect(free.totals.served).toBe(served);
    expect(free.totals.workS).toBeCloseTo(served * 0.01, 6);
    const costly = run(world({ rejectionCost: '1ms' }));
    const refused = failures(costly, 'unsupported-version');
    expect(costly.totals.served).toBe(route(costly, 'new').ok + route(costly, 'unversioned').ok);
    expect(costly.totals.workS).toBeCloseTo(costly.totals.served * 0.01 + refused * 0.001, 6);
  });

  it('old clients that retry 4xx and ignore the retryable flag keep retrying it: 3 tries each', () => {
    const r = run(world({ oldLayer: '{ maxAttempts: 3, backoff: { kind: none }, retryOn: [4xx], retryable: ignore }' }));
    const old = route(r, 'old');
    expect(old.ok).toBe(0);
    expect(failures(r, 'unsupported-version')).toBe(3 * old.failed);
    expect(r.attemptsPerAction[3]).toBe(old.failed);
    // Honouring the flag, the same layer stops after the first 426.
    const honest = run(world({ oldLayer: '{ maxAttempts: 3, backoff: { kind: none }, retryOn: [4xx] }' }));
    expect(failures(honest, 'unsupported-version')).toBe(route(honest, 'old').failed);
  });

  it('a 426 is the caller\'s own error: it does not open a breaker', () => {
    const r = run(world({ oldLayer: '{ maxAttempts: 3, backoff: { kind: none }, retryOn: [4xx], retryable: ignore, breaker: { minimumCalls: 10, window: { calls: 20 } } }' }));
    expect(failures(r, 'unsupported-version')).toBeGreaterThan(6000);
    expect(failures(r, 'refused-locally')).toBe(0);
  });

  it('the minimum itself is supported, and a version above it in a later part too', () => {
    const at = run(world({ oldVersion: '4.3' }));
    expect(route(at, 'old').failed).toBe(0);
    expect(failures(at, 'unsupported-version')).toBe(0);
    // A minimum above every version: the 4.10.0 population is refused too; the unversioned one never.
    const high = run(world({ minimum: '5' }));
    expect(route(high, 'new').ok).toBe(0);
    expect(route(high, 'unversioned').failed).toBe(0);
    expect(failures(high, 'unsupported-version')).toBe(route(high, 'old').failed + route(high, 'new').failed);
  });

  it('refuses before a later stage counts the request: a rate limit behind it only sees supported versions', () => {
    // A global limit of 30/s in front of 40/s of supported traffic would also refuse old
    // clients' requests if it ran first; behind min-version it never sees them.
    const after = run(world({ extraStage: '' }).replace(
      '    - { kind: min-version, minimum: "4.3.0" }',
      '    - { kind: min-version, minimum: "4.3.0" }\n    - { kind: rate-limit, key: global, limit: { algorithm: fixed-window, limit: 30, window: 1s } }',
    ));
    const refusedOld = failures(after, 'unsupported-version');
    const limited = failures(after, 'rate-limited');
    expect(refusedOld).toBe(route(after, 'old').failed);
    // 40/s supported, 30/s let through: about 10/s refused over 120 s, a retry or two each
    expect(limited).toBeGreaterThan(800);
    expect(route(after, 'new').ok + route(after, 'unversioned').ok).toBeGreaterThan(0.95 * 30 * 120);
  });

  it('shows up as its own fail_unsupported_version column of the run\'s series', () => {
    const s = loadScenario(world(), 'min-version.yaml').base;
    const r = runOne(s, 'base', 0, 1);
    const col = (r.columns as unknown as Record<string, number[]>).fail_unsupported_version;
    expect(col).toHaveLength(r.columns.t_s.length);
    expect(total(col)).toBe(failures(simulate(s, 1), 'unsupported-version'));
    expect(total(col)).toBeGreaterThan(2200);
  });
});

const problems = (yaml: string) => scenarioProblems(yaml);

describe('min-version: validation', () => {
  it('refuses versions that are not dotted whole numbers, and unquoted numbers', () => {
    expect(problems(world({ oldVersion: '4.2.0-beta' }))).toEqual(['clients.old.identity.version: expected a version of dotted whole numbers, such as "4.2.0"']);
    expect(problems(world({ minimum: '4.x' }))).toEqual(['server.stages[0].minimum: expected a version of dotted whole numbers, such as "4.2.0"']);
    // YAML reads 4.2 unquoted as a number, which would make 4.10 equal 4.1
    expect(problems(world().replace('version: "4.2.0"', 'version: 4.2'))).toEqual(['clients.old.identity.version: expected a version in quotes, such as "4.2.0"']);
  });

  it('needs a minimum, and names min-version among the stage kinds', () => {
    expect(problems(world().replace(', minimum: "4.3.0"', ''))).toEqual(['server.stages[0].minimum: missing required key "minimum"']);
    const [unknown] = problems(world().replace('kind: min-version', 'kind: min-versions'));
    expect(unknown).toMatch(/unknown kind "min-versions" \(did you mean "min-version"\?\)/);
  });
});
