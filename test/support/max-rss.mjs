// Preloaded into a child with `node --import`: when the process exits, it writes its peak resident set size
// in bytes to the file named by MCP_GEN_MAX_RSS_FILE, so a test can bound what a command costs.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.MCP_GEN_MAX_RSS_FILE;
  if (file !== undefined) writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
});
