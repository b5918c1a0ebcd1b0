// Fixture for test/architecture/imports.test.ts: a top-layer module.
export const EXIT_OK = 0;
