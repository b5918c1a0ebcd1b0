/**
 * The import rules of retrystorm, checked by dependency-cruiser (`npm run lint:imports`, and by
 * test/architecture/imports.test.ts in CI). The layers, lowest first; a file may import from its
 * own layer and any layer below it, never above, and no files may import each other in a circle:
 *
 *   engine < scenario < model < measures < experiment < results < report < cli
 *
 * engine   the simulation kernel: clock, event queue, random streams, distributions
 * scenario the file format: schema, units, loader, problems (what the user writes)
 * model    what is simulated: clients, server, faults, the recorder (reads a Scenario)
 * measures what a run measured: the measure registry and the per-run view it computes over
 * experiment variants x points x seeds on workers, aggregation, expectations, ranking, runs.json
 * results  the typed results value every writer renders, and its files (summary.json, CSVs)
 * report   writers for people: report.html, summary.md, the terminal table
 * cli      commands, flags, exit codes
 *
 * docs/DESIGN.md explains the order; a new folder gets a place in it here first.
 */
const LAYERS = ['engine', 'scenario', 'model', 'measures', 'experiment', 'results', 'report', 'cli'];

const above = (i) => LAYERS.slice(i + 1).map((l) => `^src/${l}/`);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a loop cannot be understood (or tested) one at a time.',
      from: {},
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `${layer}-imports-downward`,
      severity: 'error',
      comment: `src/${layer} may import only from itself and the layers below it (${LAYERS.slice(0, i).join(', ') || 'none'}).`,
      from: { path: `^src/${layer}/` },
      to: { path: above(i) },
    })),
    {
      name: 'src-not-from-tests',
      severity: 'error',
      comment: 'Shipped code never imports tests or benchmarks.',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'known-layer',
      severity: 'error',
      comment: 'Every source folder has a place in the layer order (add it to LAYERS).',
      from: { path: '^src/', pathNot: `^src/(${LAYERS.join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
