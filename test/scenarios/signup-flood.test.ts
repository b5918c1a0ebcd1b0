// The guard of signup-flood's `defended` variant (story 003) on a 5-minute run with the
// attacker silent: what its budget, reserves and bulkhead cost real users with no attack at
// all. Login and session revalidation use 3,000 of the provider's 5,000 calls a minute, well
// inside their reserves of 1,800 each; real signups, 60 a minute, fit under their bulkhead
// of 200. The guard once refused every signup once login and session together had used the
// unreserved 900 calls of a minute, 18 s into it: two thirds of real signups failed. The
// full-size runs, with and without the flood, are in signup-flood-attack.slow.test.ts.
import { describe, it, expect } from 'vitest';
import { withoutFlood, populationSuccess } from './signup-flood-fixture.js';

describe('scenarios/signup-flood.yaml, defended, the attacker silent (5 minutes)', () => {
  const { summary } = withoutFlood('defended', true);

  it('serves every population: the reserves hold budget for login and session without refusing signups below their share', () => {
    expect(populationSuccess(summary, 'signups')).toBeGreaterThanOrEqual(0.98);
    expect(populationSuccess(summary, 'logins')).toBe(1);
    expect(populationSuccess(summary, 'sessions')).toBe(1);
    const auth = summary.quotas.find((q) => q.name === 'auth')!;
    expect(auth.guardRefused).toBe(0);
    expect(auth.providerRefused).toBe(0);
  });
});
