// The first 500 mutants of the shipped scenarios (test/helpers/fuzz-suite.ts says what is
// checked); fuzz.slow.test.ts runs 10,000 with the same seed, so these are the start of those.
// 500 meet each shipped file and each kind of edit about 40 times and keep the quick suite
// quick: the 10,000 took a third of its CPU, 1,000 were still 28 s of one worker.
import { fuzzSuite } from '../helpers/fuzz-suite.js';

fuzzSuite(500);
