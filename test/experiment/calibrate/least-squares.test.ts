// The search of a calibration on models whose answer is known: it converges, runs each trial
// once, looks over the whole box before refining (so a start on a cliff's wrong side does not
// trap it), and stops at its budget or an abort with the best trial so far.
import { describe, expect, it } from 'vitest';
import { halton, leastSquares } from '../../../src/experiment/calibrate/least-squares.js';

/** y_i = a·exp(-b·t_i) + c on 40 points, with a, b, c from a point of the unit box. */
const curve = (u: readonly number[]) => Float64Array.from({ length: 40 }, (_, i) => (1 + 4 * u[0]) * Math.exp(-(0.05 + 0.5 * u[1]) * i) + 2 * u[2]);

describe('leastSquares', () => {
  it('recovers a smooth model\'s parameters from a start far away, running each trial once', async () => {
    const truth = [0.62, 0.31, 0.45];
    const asked: string[] = [];
    const r = await leastSquares({
      observed: curve(truth), start: [0.1, 0.9, 0.9], budget: 200, explore: 15,
      trial: async (u) => { asked.push(u.join(',')); return curve(u); },
    });
    r.best.u.forEach((x, i) => expect(x).toBeCloseTo(truth[i], 3));
    expect(new Set(asked).size).toBe(asked.length);
    expect(r.trials.length).toBe(asked.length);
    for (const t of r.trials) for (const x of t.u) expect(x >= 0 && x <= 1).toBe(true);
  });

  it('looks over the box first: a start beyond a cliff, where every nearby world is equally bad, still finds the basin', async () => {
    // Beyond u0 = 0.7 the "service never recovers": the series is flat whatever the values.
    const model = (u: readonly number[]) => (u[0] > 0.7 ? new Float64Array(20).fill(10) : Float64Array.from({ length: 20 }, (_, i) => u[0] * i + u[1]));
    const truth = [0.3, 0.6];
    const search = (explore: number) => leastSquares({ observed: model(truth), start: [0.9, 0.9], budget: 120, explore, trial: async (u) => model(u) });
    const looked = await search(6);
    expect(looked.best.u[0]).toBeCloseTo(0.3, 3);
    expect(looked.best.u[1]).toBeCloseTo(0.6, 3);
    // Without the look, the slope at the start is flat and the search stays on the cliff's far side.
    const blind = await search(0);
    expect(blind.best.u[0]).toBeGreaterThan(0.7);
  });

  it('stops at its budget, and on an abort, with the best trial so far', async () => {
    const truth = [0.62, 0.31, 0.45];
    const budgeted = await leastSquares({ observed: curve(truth), start: [0.1, 0.9, 0.9], budget: 12, explore: 4, trial: async (u) => curve(u) });
    expect(budgeted.ended).toBe('budget');
    expect(budgeted.trials.length).toBe(12);
    expect(budgeted.best.loss).toBe(Math.min(...budgeted.trials.map((t) => t.loss)));
    const stop = new AbortController();
    let n = 0;
    const stopped = await leastSquares({
      observed: curve(truth), start: [0.1, 0.9, 0.9], budget: 100, explore: 4, signal: stop.signal,
      trial: async (u) => { if (++n === 7) stop.abort(); return curve(u); },
    });
    expect(stopped.ended).toBe('interrupted');
    expect(stopped.trials.length).toBe(6); // the seventh was stopped while it ran
  });
});

describe('halton', () => {
  it('is the radical-inverse sequence in bases 2, 3, 5', () => {
    const expected = [[1 / 2, 1 / 3, 1 / 5], [1 / 4, 2 / 3, 2 / 5], [3 / 4, 1 / 9, 3 / 5]];
    halton(3, 3).forEach((point, k) => point.forEach((x, d) => expect(x).toBeCloseTo(expected[k][d], 12)));
  });
});
