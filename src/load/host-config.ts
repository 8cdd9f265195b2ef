import { readFileSync } from 'node:fs';

/** A host's configuration file as text, or null when it does not exist yet. */
export function readHostConfig(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
