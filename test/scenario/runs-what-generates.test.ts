// The validator and the runner agree, on 200 scenarios generated from the schema (the slow
// suite runs 3,000): test/helpers/runs-what-generates.ts.
import { runsWhatGenerates } from '../helpers/runs-what-generates.js';

runsWhatGenerates(200);
