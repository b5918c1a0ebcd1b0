// The validator and the runner agree, on the first 300 mutants (the slow suite runs 3,000):
// test/helpers/runs-what-loads.ts.
import { runsWhatLoads } from '../helpers/runs-what-loads.js';

runsWhatLoads(300);
