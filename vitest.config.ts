import { defineConfig } from 'vitest/config';

// Only test/ holds tests: without this vitest also collects compiled copies from dist/.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
