/** The disk refused a write; nothing was changed. An environment problem, not a bug in mcp-gen. */
export class WriteError extends Error {
  override readonly name = 'WriteError';
}

/** What the common refusals mean, so a message names the cause and not only the code. */
const causes: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  // EPERM where EACCES is expected: root is refused only by a file or folder marked immutable or append-only.
  EPERM: 'permission denied: the file or its folder is immutable, append-only or otherwise protected',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is exceeded',
  EBUSY: 'the file is in use',
  ENOTDIR: 'a file stands where a folder is needed',
  EISDIR: 'a folder stands where a file is needed',
};

/** The error's code and, when known, what it means: `EPERM: permission denied: ...`. */
export function causeOf(error: unknown): string {
  const reason = error as NodeJS.ErrnoException;
  if (reason.code === undefined) return reason.message;
  const meaning = causes[reason.code];
  return meaning === undefined ? reason.code : `${reason.code}: ${meaning}`;
}
