// Writes scenarios/recorded-day.csv: a made-up but realistic day of a mobile API's traffic,
// requests per minute from 00:00 to 24:00 UTC on 2026-12-07, as a team would export it from
// its access logs (a header row, then `minute,requests`). Nothing in it was measured, so it can
// be shipped: a daily curve (quiet at 04:00, a morning peak near 11:00, an evening one near
// 20:30), Poisson noise around it, and at 12:30 a push notification that brings three times
// the traffic for five minutes, decaying after. Deterministic (its own seeded generator): run
// `node scripts/make-recorded-day.mjs` and the file comes out byte for byte the same.
//
// It also writes scenarios/recorded-day-latency.json: the same API's latency histogram as
// Prometheus' HTTP API returns a range query of `http_request_duration_seconds_bucket{job="api"}`
// from 10:00 to 14:00, one value an hour (the raw counters, which did not start at 0: the
// process was up before). Each request of those hours (the CSV's counts) gets a handler
// duration drawn from a lognormal (median 125 ms, p99 about 920 ms), counted into Prometheus'
// default buckets. Made up too, with its own seeded generator, so the CSV above is unchanged.
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

// The latency histogram of 10:00-14:00.
const lat = mulberry32(20261208);
/** A standard normal variate (Box-Muller, one of the pair). */
const normal = () => Math.sqrt(-2 * Math.log(1 - lat())) * Math.cos(2 * Math.PI * lat());
const MEDIAN = 0.125, SIGMA = 0.86;
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]; // client_golang's DefBuckets
const counts = lines.slice(2).map((l) => Number(l.split(',')[1]));
// The counters at 10:00, cumulative like every reading of them: what the process had counted before.
const buckets = [...BOUNDS, Infinity].map((_, i) => 40 * (i + 1) * (i + 2));
const values = buckets.map(() => []);
const at = (h) => start + 3600 * h;
for (let h = 10; h <= 14; h++) {
  if (h > 10) {
    for (let m = (h - 1) * 60; m < h * 60; m++) {
      for (let r = 0; r < counts[m]; r++) {
        const d = MEDIAN * Math.exp(SIGMA * normal());
        for (let b = BOUNDS.length; b >= 0 && (b === BOUNDS.length || d <= BOUNDS[b]); b--) buckets[b]++;
      }
    }
  }
  buckets.forEach((c, b) => values[b].push([at(h), String(c)]));
}
const result = [...BOUNDS, Infinity]
  .map((le, b) => ({ metric: { __name__: 'http_request_duration_seconds_bucket', job: 'api', le: le === Infinity ? '+Inf' : String(le) }, values: values[b] }))
  // Prometheus orders series by their labels, as strings.
  .sort((x, y) => (x.metric.le < y.metric.le ? -1 : 1));
const body = { status: 'success', data: { resultType: 'matrix', result } };
writeFileSync(new URL('../scenarios/recorded-day-latency.json', import.meta.url), JSON.stringify(body, null, 1).replace(/\[\n\s+(\d+),\n\s+("\d+")\n\s+\]/g, '[$1, $2]') + '\n');
