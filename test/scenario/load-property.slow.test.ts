// The loader under 3,000 random edits of the reference scenario (test/helpers/load-property.ts);
// the quick suite's load.test.ts runs the first 1,000 of them.
import { loadProperty } from '../helpers/load-property.js';

loadProperty(3000);
