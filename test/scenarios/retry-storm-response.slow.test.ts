// The flagship's operator responses (story 000): the story's own response at the story's
// time, and the same response 30 minutes into the outage. The story's outage ended after
// 3 h 10 min because people acted; the model's as-is storm never ends by itself.
import { describe, it, expect } from 'vitest';
import { run, runResult, SEEDS, MINUTE } from './retry-storm-fixture.js';

const STORY_OUTAGE_S = (3 * 60 + 10) * MINUTE;

describe('scenarios/retry-storm.yaml: the operators\' response', () => {
  describe.each(SEEDS)('story-response after the 12-minute outage, seed %i', (seed) => {
    const r = runResult('story-response', '12m', seed);

    it('acts at the story\'s time: 3 hours into the incident, the remote switch and the version block; the block lifted 15 minutes later', () => {
      // The alert: success below 50% from the outage's start (20m), for 5 minutes.
      expect(r.actions.every((a) => a.trigger.kind === 'signal' && a.trigger.heldAtS === 25 * MINUTE)).toBe(true);
      expect(r.actions.map((a) => [a.name, a.kind, a.atS])).toEqual([
        ['switch-app', 'remote-switch', 200 * MINUTE],
        ['switch-sync', 'remote-switch', 200 * MINUTE],
        ['block-old-version', 'block', 200 * MINUTE],
        ['lift-block', 'undo', 215 * MINUTE],
      ]);
      expect(r.actions.every((a) => a.note === undefined)).toBe(true);
    });

    it('users see an outage within 15 minutes of the story\'s 3 h 10 min, and the service comes back', () => {
      expect(Math.abs(r.summary.measures.perceivedOutageS! - STORY_OUTAGE_S)).toBeLessThanOrEqual(15 * MINUTE);
      expect(r.summary.measures.recovered).toBe(1);
      // Nothing came back before the response (the outage ended at 32m, the response at 3h20m).
      expect(r.summary.measures.recoveryTimeS!).toBeGreaterThanOrEqual(200 * MINUTE - 32 * MINUTE);
    });
  });

  it('acting 30 minutes into the outage instead of 3 hours spares users about two and a half hours', () => {
    const early = runResult('act-at-30m', '12m');
    // Alerted at 25m, acting 25 minutes later.
    const switched = early.actions.find((a) => a.name === 'switch-app')!;
    expect(switched.atS).toBe(50 * MINUTE);
    expect(switched.trigger).toMatchObject({ kind: 'signal', signal: 'success', below: 0.5, forS: 5 * MINUTE, heldAtS: 25 * MINUTE });
    expect(early.actions.find((a) => a.name === 'lift-block')!.atS).toBe(65 * MINUTE);
    expect(early.summary.measures.recovered).toBe(1);
    expect(early.summary.measures.perceivedOutageS).toBeLessThanOrEqual(40 * MINUTE);
    const story = run('story-response', '12m');
    expect(story.perceivedOutageS! - early.summary.measures.perceivedOutageS!).toBeGreaterThan(140 * MINUTE);
  });

  it('after a 4-minute outage the service comes back by itself, the alert never holds for 5 minutes, and nobody acts', () => {
    for (const variant of ['story-response', 'act-at-30m']) {
      const short = runResult(variant, '4m');
      expect(short.actions, variant).toEqual([]);
      expect(short.summary.measures.recovered, variant).toBe(1);
    }
  });
});
