// 10,000 mutants of the shipped scenarios, with a fixed seed (test/helpers/fuzz-suite.ts says
// what is checked); the quick suite runs the first 500 of these.
import { fuzzSuite } from '../helpers/fuzz-suite.js';

fuzzSuite(10_000);
