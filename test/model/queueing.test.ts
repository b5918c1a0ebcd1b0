/**
 * The queueing core against the M/M/1 and M/M/c closed forms, on runs an eighth as long as
 * the full check in queueing.slow.test.ts (npm run test:slow): 10.5M customers instead of
 * 84M, standard errors sqrt(8) = 2.8 times larger, so the mean wait in queue is held to 6%
 * (still 4 standard errors or more, and still tells rho 0.9 from rho 0.89, 10% apart) and
 * utilisation to 1%. The reasoning behind the lengths is in queueing.ts.
 */
import { describe, it, expect } from 'vitest';
import { erlangB, erlangC, mm1Wq, mmcWq } from './closed-forms.js';
import { describeClosedForms } from './queueing.js';

describe('closed forms', () => {
  it('Erlang B and C match values computed by hand', () => {
    // B(1, a) = a / (1 + a); C(1, a) = a (M/M/1: P(wait) = rho).
    expect(erlangB(1, 0.5)).toBeCloseTo(1 / 3, 14);
    expect(erlangC(1, 0.9)).toBeCloseTo(0.9, 14);
    // C(2, 1) = (1/2 * 2) / (1 + 1 + 1) = 1/3.
    expect(erlangC(2, 1)).toBeCloseTo(1 / 3, 14);
    // C(10, 9) from the factorial formula.
    let sum = 0;
    let term = 1;
    for (let k = 0; k < 10; k++) {
      sum += term;
      term *= 9 / (k + 1);
    }
    const top = term * (10 / (10 - 9)); // 9^10/10! * c/(c-a)
    expect(erlangC(10, 9)).toBeCloseTo(top / (sum + top), 12);
    expect(erlangC(10, 9)).toBeCloseTo(0.6687, 4);
    // M/M/c with c = 1 reduces to M/M/1.
    expect(mmcWq(900, 1000, 1)).toBeCloseTo(mm1Wq(900, 1000), 15);
  });
});

describeClosedForms({ scale: 1 / 8, wqTolerance: 0.06, utilTolerance: 0.01 });
