import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each suite's longest files, longest first (seconds of one worker, measured in a whole
 * run; docs/testing.md). vitest starts the longest files first only when its cache of the last
 * run says which they are, and it counts only the time in tests: a file that simulates while
 * it is collected looks like 0 s and starts last. In a clean clone (CI) there is no cache and
 * vitest goes by file size, so a short file with a long run could start last and leave one
 * worker running it alone at the end. Only an order: a file missing here runs after these,
 * in vitest's own order.
 */
const LONGEST_FIRST = [
  // Measured 2026-12-02 04:41 (load 5-8 beside other work): seconds of one worker, collection
  // (a file simulating while it is collected) included.
  'test/diff/diff-cli.test.ts', // 74
  'test/cli/guards.test.ts', // 45
  'test/experiment/determinism.test.ts', // 43
  'test/experiment/interrupt.test.ts', // 41
  'test/cli/edge.test.ts', // 29
  'test/report/charts.browser.test.ts', // 26
  'test/report/report.browser.test.ts', // 23
  'test/model/plain-world.test.ts', // 21
  'test/cli/cli.test.ts', // 19
  'test/experiment/shard-merge.test.ts', // 19
  'test/cli/output-folder.test.ts', // 17
  'test/scenarios/retry-storm.test.ts', // 17
  'test/scenario/fuzz.test.ts', // 16
  'test/experiment/failures.test.ts', // 16
  'test/cli/cli-progress.test.ts', // 14
  'test/diff/ci-recipe.test.ts', // 13
  'test/report/charts.test.ts', // 13
  'test/model/client/preset-behaviour.test.ts', // 12
  'test/architecture/imports.test.ts', // 12
  'test/scenarios/server-defences.test.ts', // 12
  'test/model/queueing.test.ts', // 10
  'test/report/first-screen.browser.test.ts', // 10
  'test/scenario/json-schema.test.ts', // 10
  'test/scenarios/retry-storm-autoscaler.test.ts', // 8, all while collected
  // The slow suite's, from the clean-clone CI of be301fc (2026-12-02 06:29, quiet; seconds in
  // tests, collection not included): the two longest must not start last.
  'test/scenarios/retry-storm-cliffs.slow.test.ts', // 185
  'test/scenario/fuzz.slow.test.ts', // 160
  'test/model/queueing.slow.test.ts', // 86
  'test/scenarios/dependency-outage.slow.test.ts', // 55
  'test/scenarios/retry-storm.slow.test.ts', // 35
  'test/scenarios/offline-sync.slow.test.ts', // 35
  'test/experiment/cluster-examples.slow.test.ts', // 29
  'test/scenarios/signup-flood.slow.test.ts', // 28
  // Moved from the quick suite on 2026-12-02 (seconds in tests in a quiet quick run that day).
  'test/scenarios/incident-playbook.slow.test.ts', // 24
  'test/scenarios/offline-sync-first-40m.slow.test.ts', // 23
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.replaceAll('\\', '/').endsWith(p));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return order
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.f);
  }
}

// Two suites. `npm test` runs test/**/*.test.ts except the slow ones: every mechanism, on
// models sized to keep it quick. `npm run test:slow` (vitest --mode slow) runs the
// *.slow.test.ts files: most stories' outcomes on the shipped scenarios, the closed forms at
// full precision, the cluster examples as processes. CI runs both (docs/testing.md).
export default defineConfig(({ mode }) => ({
  test: {
    // Only test/ holds tests: without this vitest also collects compiled copies from dist/.
    include: mode === 'slow' ? ['test/**/*.slow.test.ts'] : ['test/**/*.test.ts'],
    exclude: mode === 'slow' ? configDefaults.exclude : [...configDefaults.exclude, 'test/**/*.slow.test.ts'],
    // vitest's default on a 2-core machine is one test file at a time (cores - 1); the test
    // files are single-threaded simulations, so two at a time use both cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Test files share their worker's module cache instead of importing the project afresh
    // each: importing zod schemas, yaml and vega-lite again for each of 90 files was about a
    // third of the quick suite's CPU (measured on test/model, measures, engine and results:
    // 99 s of user CPU isolated, 65 s shared). No test mocks modules or leaves global state
    // behind (guards.test.ts restores its one spy), which is what isolation protects against.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // Hang guards, not timing checks: generous multiples of the slowest test's quiet time, so a
    // machine at load 10 does not fail a test that is merely slow there.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
}));
