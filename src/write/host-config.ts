import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Replaces a host's configuration file with `text`: the file it replaces is
 * kept first as `<file>.bak` (one backup per change, the latest), and the new
 * text goes in by a rename, so a host reading the file sees the old or the
 * new, never half. A missing folder is created.
 */
export function writeHostConfig(file: string, text: string): { readonly backup: string | null } {
  mkdirSync(path.dirname(file), { recursive: true });
  let backup: string | null = null;
  if (existsSync(file)) {
    backup = `${file}.bak`;
    copyFileSync(file, backup);
  }
  const temporary = `${file}.mcp-gen-${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
  return { backup };
}
