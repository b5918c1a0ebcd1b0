/**
 * The version of retrystorm, from one leaf module that imports nothing, in the lowest layer
 * that records it (runs.json; summary.json above it), so that merge can refuse shards made by
 * different versions) and `retrystorm --version` prints it. It must equal package.json's
 * version: test/cli/package.test.ts checks that they agree.
 */
export const TOOL_VERSION = '0.1.0';
