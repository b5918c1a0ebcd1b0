import { defineConfig } from 'vitest/config';

// Only test/ holds tests: without this vitest also collects compiled copies from dist/.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Hang guards, not timing checks: generous multiples of the slowest test's quiet time, so a
    // machine at load 10 does not fail a test that is merely slow there.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
