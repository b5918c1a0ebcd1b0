// The fitted scenario is the original as written, with only the fitted values changed (and
// said beside each), so a review's diff of the two shows exactly the fitted lines and the
// fitted file loads like the original.
import { describe, expect, it } from 'vitest';
import { fittedText } from '../../src/scenario/fitted-text.js';
import { loadScenario } from '../../src/scenario/load.js';

const SOURCE = `# The team's service.
name: t
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 10/s } # the morning's traffic
    retry:
      maxAttempts: 3
      timeout: 1s   # the SDK's default
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 100ms }
`;

describe('fittedText', () => {
  it('changes only the fitted values (and the name, NAME-fitted), on their own lines, in the unit written, keeps every comment, and says what each was', () => {
    const out = fittedText(SOURCE, [
      { path: ['server', 'slots'], written: 7, note: 'fitted (95%: 6 to 8), was 10' },
      { path: ['clients', 'app', 'retry', 'timeout'], written: '2.5s', note: 'fitted (95%: 2.1s to 2.9s), was 1s' },
      { path: ['clients', 'app', 'arrivals', 'rate'], written: '12.5/s', note: 'fitted (95%: 11/s to 14/s), was 10/s' },
      { path: ['server', 'serviceTime', 'mean'], written: '0.085s', note: 'fitted (95%: 80ms to 90ms), was 100ms' },
    ], ' Fitted by retrystorm calibrate.');
    const before = SOURCE.split('\n'), after = out.split('\n');
    expect(after[0]).toBe('# Fitted by retrystorm calibrate.');
    const changed = after.filter((l) => !before.includes(l));
    expect(changed).toEqual([
      '# Fitted by retrystorm calibrate.',
      'name: t-fitted',
      '    arrivals: { kind: constant, rate: 12.5/s } # rate: fitted (95%: 11/s to 14/s), was 10/s; the morning\'s traffic',
      "      timeout: 2.5s # fitted (95%: 2.1s to 2.9s), was 1s; the SDK's default",
      '  slots: 7 # fitted (95%: 6 to 8), was 10',
      '  serviceTime: { kind: exponential, mean: 85ms } # mean: fitted (95%: 80ms to 90ms), was 100ms',
    ]);
    const loaded = loadScenario(out, 'fitted.yaml');
    expect(loaded.base.server.slots).toBe(7);
    expect(loaded.base.clients.app.retry?.timeout).toBe(2.5);
    expect(loaded.base.server.serviceTime).toMatchObject({ mean: 0.085 });
  });
});
