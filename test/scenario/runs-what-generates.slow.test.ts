// The validator and the runner agree, on 3,000 scenarios generated from the schema (the quick
// suite runs the first 200): test/helpers/runs-what-generates.ts.
import { runsWhatGenerates } from '../helpers/runs-what-generates.js';

runsWhatGenerates(3000);
