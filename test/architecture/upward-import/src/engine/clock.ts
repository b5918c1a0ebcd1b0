// Fixture for test/architecture/imports.test.ts: the kernel reaching up into the CLI, which
// the import rules must refuse.
import { EXIT_OK } from '../cli/exit-codes.js';

export const start = EXIT_OK;
