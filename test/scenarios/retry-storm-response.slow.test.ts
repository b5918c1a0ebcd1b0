// The flagship's operator response (story 000), acted on 30 minutes into the outage. Without
// it the storm ends only when enough people have given up, after the story's 3 h 10 min
// (retry-storm.slow.test.ts).
import { describe, it, expect } from 'vitest';
import { run, runResult, MINUTE } from './retry-storm-fixture.js';

describe('scenarios/retry-storm.yaml: the operators\' response', () => {
  it('acting 30 minutes into the outage instead of 3 hours spares users about two and a half hours', () => {
    const early = runResult('act-at-30m', '12m');
    // Alerted at 25m, acting 25 minutes later.
    const switched = early.actions.find((a) => a.name === 'switch-app')!;
    expect(switched.atS).toBe(50 * MINUTE);
    expect(switched.trigger).toMatchObject({ kind: 'signal', signal: 'success', below: 0.5, forS: 5 * MINUTE, heldAtS: 25 * MINUTE });
    expect(early.actions.find((a) => a.name === 'lift-block')!.atS).toBe(65 * MINUTE);
    expect(early.summary.measures.recovered).toBe(1);
    expect(early.summary.measures.perceivedOutageS).toBeLessThanOrEqual(40 * MINUTE);
    const story = run('as-is', '12m');
    expect(story.perceivedOutageS! - early.summary.measures.perceivedOutageS!).toBeGreaterThan(140 * MINUTE);
  });

  it('after a 4-minute outage the service comes back by itself, the alert never holds for 5 minutes, and nobody acts', () => {
    for (const variant of ['act-at-30m']) {
      const short = runResult(variant, '4m');
      expect(short.actions, variant).toEqual([]);
      expect(short.summary.measures.recovered, variant).toBe(1);
    }
  });
});
