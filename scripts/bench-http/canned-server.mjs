// The floor of the HTTP comparison: plain node:http answering every POST with the same canned
// bytes (the generated server's own answer to the benchmark call, read from the file given as the
// first argument). No MCP, no validation: what the machine and autocannon allow at all.
//
// Usage: node scripts/bench-http/canned-server.mjs <answer.json>
// → prints "listening on http://127.0.0.1:<port>/mcp" on stderr
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answer = readFileSync(process.argv[2]);
const server = createServer((req, res) => {
  req.resume(); // read and drop the body, as any server must before answering on a keep-alive connection
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`bench-canned listening on http://127.0.0.1:${server.address().port}/mcp\n`);
});
