// A smaller model of the flagship (scenarios/retry-storm.yaml) that keeps the behaviour the
// diff tests need: the same world and the same two policies (as-is and client-ceiling) at the
// 12-minute outage, from the flagship's fixed seed. The outage starts at 6 minutes instead of
// 20 (the world is at its steady state within seconds; 6 minutes leave the 5-minute hold a
// healthy stretch before it) and the runs end 10 minutes after it (28 minutes instead of 4
// hours): the service recovers under client-ceiling within about 2.5 minutes of the outage's
// end (confirmed 5 minutes later) and never under as-is, as in the full flagship. Most of the
// cost is as-is's storm, which lasts to the horizon: 28 minutes cost about 0.7 of the 50
// minutes this model had before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { ROOT } from '../helpers/cli.js';

export interface SmallFlagshipOptions {
  /** client-ceiling's maxAttempts for every population it changes (the flagship's: 4). */
  attempts?: number;
  /** client-ceiling's deadline (the flagship's: 20s). */
  deadline?: string;
  seeds?: number;
  /** A comment added at the top of the file. */
  comment?: string;
  /** Guards on change for client-ceiling's recovery time at 12 min ("10%"), one expectation each. */
  guards?: string[];
}

export function smallFlagship(o: SmallFlagshipOptions = {}): string {
  const doc = parseDocument(readFileSync(join(ROOT, 'scenarios/retry-storm.yaml'), 'utf8'));
  doc.set('horizon', '28m');
  doc.setIn(['faults', 0, 'at'], '6m');
  doc.set('seeds', o.seeds ?? 3);
  doc.setIn(['sweep', 0, 'values'], doc.createNode(['12m'], { flow: true }));
  doc.delete('expectations');
  const variants = doc.get('variants') as { items: Array<{ key: { value: string } }> };
  variants.items = variants.items.filter((p) => ['as-is', 'client-ceiling'].includes(p.key.value));
  for (const [population, layer] of [['app', 'app'], ['sync', 'sync'], ['partner', 'app']]) {
    const at = ['variants', 'client-ceiling', 'overlay', 'clients', population, 'layers', layer];
    if (o.attempts !== undefined) doc.setIn([...at, 'maxAttempts'], o.attempts);
    if (o.deadline !== undefined) doc.setIn([...at, 'deadline'], o.deadline);
  }
  const at = { 'faults[0].duration': '12m' };
  doc.set('expectations', doc.createNode([
    { variant: 'client-ceiling', at, recovered: { atLeast: 1 } },
    ...(o.guards ?? []).map((g) => ({ variant: 'client-ceiling', at, recoveryTimeS: { worsenBy: { atMost: g } } })),
  ]));
  const text = doc.toString({ lineWidth: 0 });
  return o.comment ? `# ${o.comment}\n${text}` : text;
}
