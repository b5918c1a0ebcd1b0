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
    // Hang guards, not timing checks: generous multiples of the slowest test's quiet time, so a
    // machine at load 10 does not fail a test that is merely slow there.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
}));
