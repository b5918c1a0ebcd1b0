// Writes scenarios/recorded-day.csv: a made-up but realistic day of a mobile API's traffic,
// requests per minute from 00:00 to 24:00 UTC on 2026-12-07, as a team would export it from
// its access logs (a header row, then `minute,requests`). Nothing in it was measured, so it can
// be shipped: a daily curve (quiet at 04:00, a morning peak near 11:00, an evening one near
// 20:30), Poisson noise around it, and at 12:30 a push notification that brings three times
// the traffic for five minutes, decaying after. Deterministic (its own seeded generator): run
// `node scripts/make-recorded-day.mjs` and the file comes out byte for byte the same.
import { writeFileSync } from 'node:fs';
import { writeIncident } from './recorded-day-incident.mjs';

/** mulberry32: a small seeded generator, so the file does not depend on Math.random. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(20261207);

/** A Poisson count of mean m (Knuth's method for small means, a rounded normal for large ones). */
function poisson(m) {
  if (m > 50) {
    const u = 1 - rng(), v = rng();
    return Math.max(0, Math.round(m + Math.sqrt(m) * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)));
  }
  let k = 0, p = 1;
  const l = Math.exp(-m);
  do { k++; p *= rng(); } while (p > l);
  return k - 1;
}

const bump = (h, at, width) => Math.exp(-(((h - at) / width) ** 2) / 2);
const lines = ['# A made-up day of a mobile API (requests per minute, UTC): scripts/make-recorded-day.mjs', 'minute,requests'];
const start = Date.UTC(2026, 11, 7) / 1000;
/** The day's mean requests per second at minute m. */
function meanPerS(m) {
  const h = m / 60;
  // Requests per second: a night floor, the morning and evening peaks.
  let perS = 4 + 26 * bump(h, 11, 2.6) + 20 * bump(h, 20.5, 2.2) + 6 * bump(h, 15.5, 2);
  // 12:30: the push notification, 3x for five minutes, then a decaying tail.
  if (m >= 750 && m < 755) perS *= 3;
  else if (m >= 755) perS *= 1 + 1.2 * Math.exp(-(m - 755) / 8);
  return perS;
}
for (let m = 0; m < 1440; m++) {
  lines.push(`${new Date((start + 60 * m) * 1000).toISOString().replace('.000Z', 'Z')},${poisson(meanPerS(m) * 60)}`);
}
writeFileSync(new URL('../scenarios/recorded-day.csv', import.meta.url), lines.join('\n') + '\n');
// What the dashboards showed around the push, beside the traffic (observed: in the scenario).
writeIncident(meanPerS);
