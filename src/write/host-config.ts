import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Replaces a host's configuration file with `text`: the file it replaces is
 * kept first as `<file>.bak` (one backup per change, the latest), and the new
 * text goes in by a rename, so a host reading the file sees the old or the
 * new, never half. A missing folder is created. A step that fails (a full
 * disk, a file that cannot be copied or replaced) takes its temporary file
 * with it: the host's folder is not the project's, and no later run of ours
 * would find a stray there to remove.
 */
export function writeHostConfig(file: string, text: string): { readonly backup: string | null } {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.mcp-gen-${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    let backup: string | null = null;
    if (existsSync(file)) {
      backup = `${file}.bak`;
      copyFileSync(file, backup);
    }
    renameSync(temporary, file);
    return { backup };
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
