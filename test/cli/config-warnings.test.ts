// Fields of a deployed config that do not change the load (an Envoy route's host predicate, its
// retry priority, a cluster's connection limits) are warnings, not errors: the scenario loads,
// and validate, run, edge and calibrate say each one on stderr, with its place in the config,
// so a user learns what the simulation does not model. validate --json lists them too.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCliProcess } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-config-warnings-'));

beforeAll(() => {
  ensureBuilt();
  copyFileSync(join(ROOT, 'test/scenario/from-config/envoy-bootstrap.yaml'), join(dir, 'envoy-bootstrap.yaml'));
  writeFileSync(join(dir, 'edge.yaml'), `name: behind-envoy
horizon: 1m
clients:
  app:
    arrivals: { kind: constant, rate: 5/s }
    layers:
      proxy: { from: { envoy: envoy-bootstrap.yaml, route: checkout } }
server: { slots: 10, serviceTime: { kind: constant, value: 10ms } }
`);
}, 120_000);

describe('warnings from deployed configs', () => {
  it('validate says each, positioned in the config, and still passes; --json lists them', async () => {
    const r = await runCliProcess(dir, ['validate', 'edge.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^edge\.yaml: ok/);
    const warnings = r.stderr.trimEnd().split('\n');
    expect(warnings.length).toBeGreaterThanOrEqual(3);
    for (const w of warnings) expect(w).toMatch(/^warning: envoy-bootstrap\.yaml:\d+:\d+ {2}\S+: /);
    expect(r.stderr).toMatch(/retry_policy\.retry_host_predicate: /);
    const json = await runCliProcess(dir, ['validate', 'edge.yaml', '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    const doc = JSON.parse(json.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.warnings.length).toBe(warnings.length);
    expect(doc.warnings[0]).toMatchObject({ file: 'envoy-bootstrap.yaml' });
  });

  it('run says them before running, and not with --quiet', async () => {
    const r = await runCliProcess(dir, ['run', 'edge.yaml', '--out', 'out', '--seeds', '1']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: envoy-bootstrap\.yaml:\d+:\d+ {2}retry_policy\.retry_host_predicate: /m);
    const quiet = await runCliProcess(dir, ['run', 'edge.yaml', '--out', 'out', '--seeds', '1', '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/warning:/);
  });
});
