/**
 * The generated parts of docs/: the scenario reference and its JSON Schema (from the zod
 * schema, with the measures an expectation may name), and the reference table of every
 * measure (from the registry). Generated here, at the top, because only here are the format
 * and the measures both known; `npm run docs` writes them and a test fails when they are stale.
 */
import { scenarioFormatMarkdown } from '../scenario/format-docs.js';
import { scenarioJsonSchema } from '../scenario/json-schema.js';
import { MEASURES } from '../measures/registry.js';
import { TIPPING_POINT } from '../experiment/expectations.js';
import { POPULATION_COLUMN_INFO, RUN_COLUMN_INFO } from '../measures/columns.js';
import { TIER_MEASURES } from '../measures/tiers.js';

/** The JSON Schema `retrystorm schema` prints and docs/scenario.schema.json holds. */
export function editorSchema(): object {
  // tippingPoint bounds a search's result (docs/search.md), not a measure, but is an expectation's
  // key too; so are the per-tier measures (under `tier:`).
  return scenarioJsonSchema({ measureKeys: [...MEASURES.keys, ...TIER_MEASURES.map((m) => m.key), TIPPING_POINT], compact: true });
}

export { scenarioFormatMarkdown };

const BETTER = { lower: 'lower', higher: 'higher', none: '—' } as const;
const FOLD = { mean: 'mean (t interval)', share: 'mean (proportion interval)', fraction: 'fraction of seeds (Wilson)', max: 'max' } as const;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markers around the generated part of docs/measures.md; the prose around them is written by hand. */
export const MEASURES_BEGIN = '<!-- generated: measures (npm run docs) -->';
export const MEASURES_END = '<!-- end of generated measures -->';

/** The table of every measure and every series column, as docs/measures.md holds it between the markers. */
export function measuresReference(): string {
  const out = [
    MEASURES_BEGIN,
    '',
    '| measure | unit | better | across seeds | whose | definition |',
    '|---|---|---|---|---|---|',
    ...MEASURES.all.map((m) => `| \`${m.key}\` | ${m.unit} | ${BETTER[m.better]} | ${FOLD[m.aggregate]} | ${m.scope === 'server' ? 'server' : m.scope === 'subject' ? "the verdict's users" : m.scope === 'partners' ? 'partners' : m.perPopulation ? 'users; also per population and route' : 'users'} | ${cell(m.doc)} |`),
    '',
    'Per tier, for scenarios with services (summary.json: `variants[].points[].tiers[]`, the edge `server` first; see [topologies.md](topologies.md)):',
    '',
    '| measure | unit | better | across seeds | definition |',
    '|---|---|---|---|---|',
    ...TIER_MEASURES.map((m) => `| \`${m.key}\` | ${m.unit} | ${BETTER[m.better]} | ${FOLD[m.aggregate]} | ${cell(m.doc)} |`),
    '',
    'Columns of timeseries.csv (one row per variant, point, seed and bucket):',
    '',
    '| column | unit | meaning |',
    '|---|---|---|',
    ...RUN_COLUMN_INFO.map((c) => `| \`${c.name}\` | ${c.unit} | ${cell(c.doc)} |`),
    '',
    'Columns of populations.csv (one row per variant, point, seed, population and bucket):',
    '',
    '| column | unit | meaning |',
    '|---|---|---|',
    ...POPULATION_COLUMN_INFO.map((c) => `| \`${c.name}\` | ${c.unit} | ${cell(c.doc)} |`),
    '',
    MEASURES_END,
  ];
  return out.join('\n');
}

/** docs/measures.md with its generated part replaced. */
export function withMeasuresReference(doc: string): string {
  const from = doc.indexOf(MEASURES_BEGIN);
  const to = doc.indexOf(MEASURES_END);
  if (from < 0 || to < from) throw new Error('docs/measures.md has lost its generated-part markers');
  return doc.slice(0, from) + measuresReference() + doc.slice(to + MEASURES_END.length);
}
