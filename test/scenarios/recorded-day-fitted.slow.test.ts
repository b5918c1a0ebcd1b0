// The worked example of docs/calibrate.md: scenarios/recorded-day.fitted.yaml is what
// `retrystorm calibrate scenarios/recorded-day.yaml` writes (the command, as a process, in a
// copy of the scenario's folder, byte for byte), and on the fitted world (the app's timeout
// about 9 s rather than 1 s) the push no longer outlasts itself: as-is recovers like the
// observed service, and one try per action still serves more new users at a third of the peak.
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCliProcess } from '../helpers/cli.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const FILES = ['recorded-day.yaml', 'recorded-day.csv', 'recorded-day-latency.json', 'recorded-day-incident.csv'];

describe('scenarios/recorded-day.fitted.yaml', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('is what calibrate writes from recorded-day.yaml, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-recorded-day-fit-'));
    for (const f of FILES) copyFileSync(join(ROOT, 'scenarios', f), join(dir, f));
    const r = await runCliProcess(dir, ['calibrate', 'recorded-day.yaml', '--out', 'fit', '--quiet']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'recorded-day.fitted.yaml'), 'utf8')).toBe(readFileSync(join(ROOT, 'scenarios/recorded-day.fitted.yaml'), 'utf8'));
    const fit = JSON.parse(readFileSync(join(dir, 'fit', 'calibration.json'), 'utf8'));
    // Far closer to what the dashboards showed than the scenario as written…
    for (const s of fit.series) expect(s.nrmseFitted).toBeLessThan(s.nrmseStart / 3);
    // …yet not within the seed noise: the 20 minutes after the push are not reproduced.
    expect(fit.series.find((s: { name: string }) => s.name === 'success').misses.length).toBeGreaterThan(0);
  }, 1_800_000);

  it('on the fitted world, as-is recovers after the push, and one try per action serves more new users at a third of the peak', () => {
    const loaded = loadScenarioFile(join(ROOT, 'scenarios/recorded-day.fitted.yaml'));
    const of = (name: string) => runOne(loaded.variants.find((v) => v.name === name)!.scenario, name, 0, 1).summary.measures;
    const asIs = of('as-is'), none = of('no-retries');
    expect(asIs.recovered).toBe(1);
    expect(asIs.recoveryTimeS).toBeLessThan(15 * 60);
    expect(none.originalSuccessAfterFault).toBeGreaterThan(asIs.originalSuccessAfterFault! + 0.1);
    expect(none.peakLoadMultiple).toBeLessThan(asIs.peakLoadMultiple! / 2);
  }, 600_000);
});
