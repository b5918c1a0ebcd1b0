// Preloaded (node --require) into a CLI process under test: when the process exits, writes
// its peak resident memory in kB (threads included) to the file named by RS_MAX_RSS_FILE,
// so that a test can bound the memory a refusal or a run took, measured by the process itself.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  if (process.env.RS_MAX_RSS_FILE) writeFileSync(process.env.RS_MAX_RSS_FILE, String(process.resourceUsage().maxRSS));
});
