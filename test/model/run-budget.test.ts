/**
 * A run's budget (model/simulate.ts): memory that follows what is in flight, and a run that
 * would exceed its budget stopped with an error saying what grew, instead of never ending or
 * taking the host down (issue 17).
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { simulate, eventsAtOneInstant, type RunBudget } from '../../src/model/simulate.js';
import { RunBudgetExceeded } from '../../src/engine/budget.js';
import { UNBOUNDED_TRIES } from '../helpers/budget-scenarios.js';

const MiB = 1024 * 1024;

// 2,000 actions/s on a server that serves 10/s: the queue grows by about 2,000 attempts a second.
const QUEUE_WITHOUT_END = `
name: queue-without-end
horizon: 1h
clients:
  app:
    arrivals: { kind: constant, rate: 2000/s }
    retry: { maxAttempts: 1, timeout: 1h }
server:
  slots: 1
  serviceTime: { kind: constant, value: 100ms }
`;

function failure(yaml: string, budget: Partial<RunBudget>): Error {
  const s = loadScenario(yaml, 'budget.yaml').base;
  try {
    simulate(s, 1, { budget });
  } catch (e) {
    return e as Error;
  }
  throw new Error('the run finished');
}

describe('the run budget', () => {
  it('stops retries that loop at one instant by the events budget, with timers that stayed within 16 MiB', () => {
    // Two million tries at one instant: with every try's timeout left in its lane (28 bytes
    // each) this would be over 50 MiB, and the memory budget would stop the run first.
    const e = failure(UNBOUNDED_TRIES, { eventsAtOneInstant: 2_000_000, memoryBytes: 16 * MiB });
    expect(e).toBeInstanceOf(RunBudgetExceeded);
    expect(e.message).toMatch(
      /^run stopped at t = 1\.\d+ s of 60 s: [\d,]+ events ran at one instant without the clock moving, over the budget of 2,000,000: the model is in a loop of zero-delay events/,
    );
  });

  it('gives the events budget a default of a million plus a hundred per expected action', () => {
    expect(eventsAtOneInstant(loadScenario(UNBOUNDED_TRIES, 'a.yaml').base)).toBe(1_000_000 + 100 * 60);
    expect(eventsAtOneInstant(loadScenario(QUEUE_WITHOUT_END, 'b.yaml').base)).toBe(1_000_000 + 100 * 2000 * 3600);
    // The default stops the loop too.
    expect(failure(UNBOUNDED_TRIES, {}).message).toMatch(/over the budget of 1,006,000: /);
  });

  it('stops a queue that grows without end at the memory budget, naming the structure that grew', () => {
    const e = failure(QUEUE_WITHOUT_END, { memoryBytes: 32 * MiB });
    expect(e).toBeInstanceOf(RunBudgetExceeded);
    expect(e.message).toMatch(/^run stopped at t = [\d.]+ s of 3600 s: the run would hold more than its memory budget of 32 MiB \(\d+ MiB of simulation state when .+ grew\)$/);
    // About 2,000 attempts a second are left waiting, each holding its queue entry, its
    // record, its action and its timeout: 32 MiB lasts tens of seconds of simulated time.
    const t = Number(/at t = ([\d.]+) s/.exec(e.message)![1]);
    expect(t).toBeGreaterThan(10);
    expect(t).toBeLessThan(300);
  });
});
