// A variant whose change never takes effect (a queue bound the queue never reaches) measures
// exactly as the baseline, seed for seed; the results say so once (summary.json `inert`) and
// the terminal's note, summary.md and report.html say it in words, while a variant that does
// change the runs (one try per action, against an error rate) is not called inert.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import { bundleOf } from '../../src/results/bundle.js';
import { summaryMarkdown } from '../../src/report/markdown.js';
import { renderReportHtml } from '../../src/report/html/page.js';

const YAML = `name: inert
horizon: 5m
seeds: 3
measures: { bucket: 10s }
clients:
  app:
    clients: 500
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 10, queue: 100, serviceTime: { kind: exponential, mean: 50ms } }
faults:
  - { kind: error-rate, at: 1m, duration: 1m, probability: 0.3 }
variants:
  as-is: {}
  bigger-queue:
    description: A queue bound ten times as large (the queue never holds 100).
    overlay: { server: { queue: 1000 } }
  no-retries:
    overlay: { clients: { app: { retry: { maxAttempts: 1 } } } }
`;

describe('inert variants', () => {
  it('finds the variant whose runs are the baseline\'s, seed for seed, and says it in every output', async () => {
    const x = await runExperiment(loadScenario(YAML, 'inert.yaml'), { workers: 0 });
    const r = buildResults(x);
    expect(r.inert).toEqual([{ variant: 'bigger-queue', like: 'as-is', runs: 3 }]);
    const md = summaryMarkdown(bundleOf(x));
    expect(md).toContain('> bigger-queue ran exactly as as-is in all 3 of its runs, seed for seed: its change never took effect here');
    expect(md).not.toMatch(/no-retries ran exactly as/);
    expect(renderReportHtml(bundleOf(x))).toContain('<p class="note inert">bigger-queue ran exactly as as-is in all 3 of its runs');
  }, 120_000);
});
