/**
 * In a graph of services the server's measures (peak load, excess load, wasted work…) are the
 * edge's, not the whole graph's: their labels say "(edge)" wherever they are shown, since the
 * label travels with the results. Without it, three-tier-storm's ranking read "wasted work 0%"
 * beside a db tier wasting 92% of its slot time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentFolder, cleanupFixtures, SMALL_YAML, type Fixture } from './fixtures.js';
import { rankingText, summaryTable } from '../../src/report/table.js';

const GRAPH = `
name: edge-labels
horizon: 3m
measures: { bucket: 10s }
clients:
  users:
    clients: 100
    arrivals: { kind: constant, rate: 10/s }
    retry: { maxAttempts: 2, timeout: 2s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 5ms }
  routes: { default: { services: [{ service: db }] } }
services:
  db:
    slots: 4
    serviceTime: { kind: constant, value: 50ms }
faults:
  - { kind: capacity-cut, at: 1m, duration: 30s, slots: 1, service: db }
variants:
  as-is: {}
  one-try: { overlay: { clients: { users: { retry: { maxAttempts: 1 } } } } }
`;

let graph: Fixture, single: Fixture;
beforeAll(async () => {
  graph = await experimentFolder(GRAPH, 'rs-edge-');
  single = await experimentFolder(SMALL_YAML, 'rs-edge-single-');
});
afterAll(cleanupFixtures);

describe('the server\'s measures in a graph of services', () => {
  it('are labelled as the edge\'s in the results, the table and the ranking', () => {
    const label = (key: string) => graph.bundle.results.measures.find((m) => m.key === key)!.label;
    expect(label('peakLoadMultiple')).toBe('peak load (edge)');
    expect(label('wastedWorkShare')).toBe('wasted work share (edge)');
    expect(label('perceivedOutageS')).toBe('perceived outage'); // the users' measures are the whole graph's
    expect(summaryTable(graph.bundle.results, Infinity)).toContain('peak load (edge)');
    expect(rankingText(graph.bundle.results)).toMatch(/peak \(edge\) \d/);
  });

  it('keep their plain labels with a single server', () => {
    const label = (key: string) => single.bundle.results.measures.find((m) => m.key === key)!.label;
    expect(label('peakLoadMultiple')).toBe('peak load');
    expect(rankingText(single.bundle.results)).toMatch(/peak \d/);
    expect(rankingText(single.bundle.results)).not.toContain('(edge)');
  });
});
