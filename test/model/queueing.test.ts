/**
 * The queueing core against the M/M/1 and M/M/c closed forms, on runs a sixteenth as long as
 * the full check in queueing.slow.test.ts (npm run test:slow): 5.2M customers instead of 84M,
 * standard errors 4 times larger (0.9-2.1%), so the mean wait in queue is held to 8.5% (still
 * 4 standard errors or more) and utilisation to 1%. Measured errors at a sixteenth, seed 1:
 * -0.11%, -1.90%, +0.88%, -2.42%. It still fails on a wrong formula: with W (wait plus
 * service) instead of Wq, M/M/1 is off by 50% and 11.7%; with a sign slip in Erlang C
 * (c - a (1 + B)), M/M/10 at rho 0.9 is off by 120% (both tried). And it still tells rho 0.9
 * from rho 0.89 (Wq 10% apart; measured 9.1% from the 0.89 form), see the last test. The
 * reasoning behind the lengths is in queueing.ts.
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

describeClosedForms({ scale: 1 / 16, wqTolerance: 0.085, utilTolerance: 0.01 });
