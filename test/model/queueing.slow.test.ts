/**
 * The queueing core against the M/M/1 and M/M/c closed forms at full length: 84M customers,
 * the mean wait in queue and utilisation within 2% (4 standard errors or more; see
 * queueing.ts). About 80 s of one core, so it runs in npm run test:slow (CI runs both);
 * queueing.test.ts runs the same cases a sixteenth as long with tolerances to match.
 */
import { describeClosedForms } from './queueing.js';

describeClosedForms({ scale: 1, wqTolerance: 0.02, utilTolerance: 0.02 });
