// The validator and the runner agree, on 3,000 mutants of the shipped scenarios:
// test/helpers/runs-what-loads.ts (the quick suite runs the first 300).
import { runsWhatLoads } from '../helpers/runs-what-loads.js';

runsWhatLoads(3000);
