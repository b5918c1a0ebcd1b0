/**
 * Per-tier measures (issue 14 item 3) in the results: a graph's tiers reach summary.json
 * (parsed back strictly into the same value), summary.md and report.html, with the values
 * the simulation gives for a case worked out by hand; a single server has no tiers at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSummary, summaryJson } from '../../src/results/summary-json.js';
import { readResultsFolder } from '../../src/results/bundle.js';
import { cleanupFixtures, experimentFolder, type Fixture } from '../report/fixtures.js';

// Users try 3 times, the edge calls an API 3 times, the API fails every request (an error
// rate of 1): 3 edge attempts and 9 API attempts per user action, none successful.
const GRAPH = `
name: tiers
horizon: 5m
seeds: 2
measures: { bucket: 10s, warmup: 0s }
clients:
  users:
    arrivals: { kind: constant, rate: 2/s }
    retry: { maxAttempts: 3, backoff: { kind: constant, base: 10ms, jitter: none } }
server:
  slots: 100
  serviceTime: { kind: constant, value: 5ms }
  routes:
    default:
      services: [ { service: api, retry: { maxAttempts: 3, backoff: { kind: constant, base: 10ms, jitter: none } } } ]
services:
  api:
    slots: 100
    serviceTime: { kind: constant, value: 5ms }
    failFastTime: 20ms
faults:
  - { kind: error-rate, service: api, at: 0s, duration: 1h, probability: 1, status: 503 }
`;

let f: Fixture;
beforeAll(async () => {
  f = await experimentFolder(GRAPH, 'rs-tiers-');
});
afterAll(cleanupFixtures);

describe('per-tier measures in the results', () => {
  it('summary.json holds each tier, edge first, with the amplification worked out by hand', () => {
    const point = f.bundle.results.variants[0].points[0];
    expect(point.tiers!.map((t) => [t.name, t.callers])).toEqual([['server', []], ['api', ['server']]]);
    const [edge, api] = point.tiers!;
    // Actions still in flight at the horizon count as started but have not made all their
    // attempts: within 1% of the exact 3 and 9.
    expect(edge.measures.tierAmplification.value!).toBeCloseTo(3, 1);
    expect(api.measures.tierAmplification.value!).toBeCloseTo(9, 1);
    expect(api.measures.tierRetryShare.value!).toBeCloseTo(6 / 9, 2);
    expect(api.measures.tierSuccess.value).toBe(0);
    expect(edge.measures.tierSuccess.value).toBe(0);
    // Nothing queues: 100 slots for a few requests at a time.
    expect(api.measures.tierQueueWaitS.value).toBe(0);
  });

  it('summary.json parses back into the same value, tiers included', () => {
    expect(parseSummary(summaryJson(f.bundle.results), 'summary.json')).toEqual(f.bundle.results);
    expect(readResultsFolder(f.dir).results).toEqual(f.bundle.results);
  });

  it('summary.md and report.html show the per-tier table', () => {
    const md = readFileSync(join(f.dir, 'summary.md'), 'utf8');
    expect(md).toContain('### Per tier');
    const row = md.split('\n').find((l) => l.startsWith('| base | api ← server |'));
    expect(row, md).toBeDefined();
    expect(Number(row!.split('|')[3].trim())).toBeCloseTo(9, 1);
    const html = readFileSync(join(f.dir, 'report.html'), 'utf8');
    expect(html).toContain('<table id="tier-table">');
    expect(html).toContain('data-tier="api"');
    // The topology, each call with the peak amplification where it arrives (its own value, as the table shows it).
    const peak = f.bundle.results.variants[0].points[0].tiers![1].measures.tierPeakAmplification.value!;
    expect(peak).toBeGreaterThanOrEqual(9);
    const li = html.match(/<li><span class="variant-name">base<\/span>: users → server; server → api <span class="value">([\d.]+)<\/span><\/li>/);
    expect(li, 'the topology line').not.toBeNull();
    expect(Number(li![1])).toBeCloseTo(peak, 1);
  });

  it('a single server has no tiers in summary.json', async () => {
    const single = await experimentFolder(GRAPH.replace(/ {2}routes:[\s\S]*?(?=services:\n {2}api)/, '').replace(/services:\n {2}api:[\s\S]*?(?=faults:)/, '').replace('service: api, ', ''), 'rs-single-');
    expect(single.bundle.results.variants[0].points[0].tiers).toBeUndefined();
    expect(readFileSync(join(single.dir, 'summary.json'), 'utf8')).not.toContain('"tiers":');
  });
});
