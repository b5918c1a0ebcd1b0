// How the report says whose outcomes the verdict judges, role by role: the users, internal
// traffic (success only), partners held to their contracts, attackers whose refusals are
// not an outage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySettings } from '../../src/report/html/settings.js';
import { headlineMeasures } from '../../src/report/cells.js';
import { PARTNER_OBJECTIVES } from '../../src/measures/partner.js';
import type { Results } from '../../src/results/results.js';
import { cleanupFixtures, full, type Fixture } from './fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await full();
});
afterAll(cleanupFixtures);

const about = (r: Results) => keySettings(r).find((x) => x.label === 'verdict about')?.value;

describe('the verdict is about', () => {
  it('names the users, the internal traffic and the attackers', () => {
    expect(about(f.bundle.results)).toBe('the users of app; worker (role internal: success only, not latency); refusing scraper (role attacker) is not an outage');
  });

  it('names a partner with its contract, and says when there are no users', () => {
    const r: Results = { ...f.bundle.results, subject: [], populations: [{ name: 'api', route: 'default', role: 'partner', contract: { limit: 100, windowS: 60 } }] };
    expect(about(r)).toBe('no users; partners held to their contracts: api (100 per 1m; refusing it above that is not an outage)');
  });
});

describe('the comparison\'s columns', () => {
  it('carry the partner measures only when some variant has a partner', () => {
    const keys = (r: Results) => headlineMeasures(r).map((m) => m.key);
    const r = f.bundle.results;
    for (const k of PARTNER_OBJECTIVES) expect(keys(r)).not.toContain(k);
    const served: Results = structuredClone(r);
    served.variants[0].points[0].measures.partnerServedShare = { value: 1, lo: null, hi: null };
    expect(keys(served)).toContain('partnerServedShare');
    expect(keys(served)).not.toContain('partnerPeakMultiple');
  });
});
