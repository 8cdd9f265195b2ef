import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inside, type WriteAction } from './actions.js';
import { WriteError } from './errors.js';

const suffix = `.mcp-gen-${process.pid}`;


/**
 * Applies actions as one transaction: new contents go to temporary files
 * first, every file about to be replaced or removed is set aside, and only then
 * are the temporary files renamed into place. If any step fails, everything
 * set aside is put back and everything new is removed, so a failed run leaves
 * the tree as it was.
 */
export function applyActions(root: string, actions: readonly WriteAction[]): void {
  const temps: { temp: string; target: string }[] = [];
  const backups: { backup: string; original: string }[] = [];
  const placed: string[] = [];
  const createdDirs: string[] = [];

  const ensureDir = (dir: string) => {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d); d = path.dirname(d)) missing.unshift(d);
    for (const d of missing) {
      mkdirSync(d);
      createdDirs.push(d);
    }
  };
  const setAside = (file: string) => {
    const backup = `${file}${suffix}.bak`;
    renameSync(file, backup);
    backups.push({ backup, original: file });
  };

  try {
    for (const action of actions) {
      if (action.contents === undefined || !['create', 'update', 'move'].includes(action.kind)) continue;
      const target = inside(root, action.path);
      ensureDir(path.dirname(target));
      const temp = `${target}${suffix}.tmp`;
      writeFileSync(temp, action.contents);
      temps.push({ temp, target });
    }
    for (const action of actions) {
      if (action.kind === 'update') setAside(inside(root, action.path));
      if (action.kind === 'remove') setAside(inside(root, action.path));
      if (action.kind === 'move' && action.from !== undefined) setAside(inside(root, action.from));
    }
    for (const { temp, target } of temps) {
      renameSync(temp, target);
      placed.push(target);
    }
  } catch (error) {
    for (const file of placed) rmSync(file, { force: true });
    for (const { temp } of temps) rmSync(temp, { force: true });
    for (const { backup, original } of backups.reverse()) renameSync(backup, original);
    for (const dir of createdDirs.reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // not empty: something else lives there now; leave it
      }
    }
    const reason = error as NodeJS.ErrnoException;
    const where = reason.path === undefined ? '' : ` "${path.relative(root, reason.path).split(path.sep).join('/').replace(/\.mcp-gen-\d+\.(tmp|bak)$/, '')}"`;
    throw new WriteError(`could not write${where} (${reason.code ?? reason.message}); nothing was changed`);
  }
  for (const { backup } of backups) rmSync(backup, { force: true });
}
