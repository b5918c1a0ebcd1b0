import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Two suites. `npm test` runs test/**/*.test.ts except the slow ones: every behaviour, on
// models sized to keep it quick. `npm run test:slow` (vitest --mode slow) runs the
// *.slow.test.ts files: the shipped scenarios at full size, the closed forms at full
// precision, the cluster examples as processes. CI runs both.
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
    // Hang guards, not timing checks: generous multiples of the slowest test's quiet time, so a
    // machine at load 10 does not fail a test that is merely slow there.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
}));
