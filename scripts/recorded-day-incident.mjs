// Writes scenarios/recorded-day-incident.csv: what the team's dashboards showed on 2026-12-07
// from 10:00 to 14:00 UTC around the 12:30 push (docs/traces.md, "Comparing with what
// happened"), per minute: the share of requests that succeeded and the requests per second
// reaching the service, retries included. Made up like the traffic beside it (nothing was
// measured, so it can be shipped): before the push about 99.7% succeed and the requests are
// the day's curve; for the push's five minutes a third succeed and retries add one and a half
// times the traffic; after it the service comes back over about 15 minutes. Deterministic (its
// own seeded generator, apart from the traffic's): called by scripts/make-recorded-day.mjs.
import { writeFileSync } from 'node:fs';

/** mulberry32, seeded apart from the traffic's generator so neither file depends on the other. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `perS(m)`: the day's mean requests per second at minute m (the traffic's own curve). */
export function writeIncident(perS) {
  const rng = mulberry32(20261208);
  const lines = [
    '# What the dashboards showed around the 12:30 push (made up: scripts/recorded-day-incident.mjs)',
    'minute,success_ratio,requests_per_s',
  ];
  const start = Date.UTC(2026, 11, 7) / 1000;
  for (let m = 600; m < 840; m++) {
    // Down to a third for the push, then back over about 15 minutes (a time constant of 5).
    const failing = m < 750 ? 0.003 : m < 755 ? 0.65 : 0.65 * Math.exp(-(m - 755) / 5);
    const ok = Math.min(1, Math.max(0, 1 - failing - 0.002 + 0.004 * rng()));
    // Retries add up to one and a half times the traffic while requests fail.
    const rate = perS(m) * (1 + 2.3 * failing) * (0.97 + 0.06 * rng());
    lines.push(`${new Date((start + 60 * m) * 1000).toISOString().replace('.000Z', 'Z')},${ok.toFixed(4)},${rate.toFixed(2)}`);
  }
  writeFileSync(new URL('../scenarios/recorded-day-incident.csv', import.meta.url), lines.join('\n') + '\n');
}
