// Regenerates every example's committed output (generated code, DESIGN.md, contract tests).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const name of readdirSync(new URL('../examples/', import.meta.url)).sort()) {
  const result = spawnSync(process.execPath, ['bin/mcp-gen.js', 'generate', `examples/${name}/mcp.yaml`], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
