// The first 1,000 mutants of the shipped scenarios (test/helpers/fuzz-suite.ts says what is
// checked); fuzz.slow.test.ts runs 10,000. A tenth is enough to meet every shipped file and
// every kind of edit about 80 times each, and keeps the quick suite quick: the 10,000 took
// a third of its CPU.
import { fuzzSuite } from '../helpers/fuzz-suite.js';

fuzzSuite(1_000);
