// What an autoscaler does to the flagship's storm (docs/incidents.md, "Autoscaling a storm").
// The as-is world after the 12-minute outage, with a target-tracking autoscaler added
// (utilisation 0.6, one-minute evaluations), over 1 h 30 min: the storm and its end happen
// within it. What the model shows: the autoscaler sees nothing during the outage (failing
// fast holds no slot), orders at the first evaluation of the storm, and one more instance
// ends the storm whenever it arrives, so the provisioning delay sets the outage's length.
import { describe, it, expect } from 'vitest';
import { flagship, OUTAGE, MINUTE } from './retry-storm-fixture.js';
import { runOne } from '../../src/experiment/run-one.js';
import type { Scenario } from '../../src/scenario/schema.js';

const point = flagship.points.findIndex((p) => p.values[OUTAGE] === '12m');
const asIs = flagship.variants.find((v) => v.name === 'as-is')!.points[point];
const OUTAGE_END_S = 32 * MINUTE;

function withAutoscaler(max: number, provisioningS: number, everyS = 60, cooldownS = 300) {
  const s: Scenario = {
    ...asIs,
    horizon: 90 * MINUTE,
    server: { ...asIs.server, autoscaler: { metric: 'utilisation', target: 0.6, max, every: everyS, provisioning: provisioningS, cooldown: cooldownS, scaleIn: true } },
  };
  const r = runOne(s, 'autoscaled', point, 1);
  const outs = r.actions.filter((a) => a.trigger.kind === 'autoscaler' && a.atS > a.trigger.decidedAtS);
  return { summary: r.summary.measures, actions: r.actions, firstArrivalS: outs[0]?.atS ?? NaN, healthyFromS: OUTAGE_END_S + (r.summary.measures.recoveryTimeS ?? NaN) };
}

describe('scenarios/retry-storm.yaml with an autoscaler', () => {
  const slow = withAutoscaler(2, 3 * MINUTE);
  const late = withAutoscaler(2, 30 * MINUTE);
  const fast = withAutoscaler(10, 30, 30, 60);

  it('decides nothing during the outage: failing fast keeps the slots idle', () => {
    for (const x of [slow, late, fast]) {
      const first = x.actions[0];
      expect(first.trigger.kind).toBe('autoscaler');
      // The first evaluation after the outage ends at 32m sees the returning storm at full utilisation.
      expect(first.trigger.kind === 'autoscaler' && first.trigger.decidedAtS).toBeGreaterThanOrEqual(OUTAGE_END_S);
      expect(first.trigger.kind === 'autoscaler' && first.trigger.decidedAtS).toBeLessThanOrEqual(OUTAGE_END_S + MINUTE);
      expect(first.trigger.kind === 'autoscaler' && first.trigger.value).toBeGreaterThan(0.99);
    }
  });

  it('with 3 minutes of provisioning the instance arrives into an established storm, and a second instance ends it', () => {
    expect(slow.firstArrivalS).toBeGreaterThan(OUTAGE_END_S + 3 * MINUTE);
    expect(slow.summary.recovered).toBe(1);
    expect(slow.healthyFromS).toBeGreaterThanOrEqual(slow.firstArrivalS);
    // As-is, this storm never ends (retry-storm.test.ts).
    expect(slow.summary.recoveryTimeS!).toBeLessThanOrEqual(10 * MINUTE);
  });

  it('with 30 minutes of provisioning the storm lasts until the instance arrives, then ends the same way', () => {
    expect(late.firstArrivalS).toBeGreaterThan(OUTAGE_END_S + 30 * MINUTE);
    expect(late.summary.recovered).toBe(1);
    expect(late.healthyFromS).toBeGreaterThanOrEqual(late.firstArrivalS);
    expect(late.summary.perceivedOutageS).toBeGreaterThan(slow.summary.perceivedOutageS! + 20 * MINUTE);
  });

  it('with 30 s of provisioning and headroom to 10 instances it ends sooner still', () => {
    expect(fast.summary.recovered).toBe(1);
    expect(fast.summary.recoveryTimeS!).toBeLessThan(slow.summary.recoveryTimeS!);
    expect(Math.max(...fast.actions.map((a) => a.instances ?? 0))).toBeGreaterThan(2);
    // Once the storm is over it scales back in.
    expect(fast.actions.at(-1)!.instances).toBe(1);
  });
});
