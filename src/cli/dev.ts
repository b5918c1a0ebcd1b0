/** Entry for running the CLI from sources with tsx (`npm run dev -- run …`), no build needed. */
import { runCli } from './main.js';

await runCli();
