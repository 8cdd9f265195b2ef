/**
 * Path resolution that a concurrent rename cannot redirect.
 *
 * Checking a path and then opening it by name is a race: between the two, a local process can swap a
 * directory on the path for a symbolic link that leads outside the scope (`O_NOFOLLOW` guards only the
 * last component). So nothing here opens a path from the top. A walk starts from an open descriptor of the
 * scope directory and opens one component at a time, each relative to the descriptor of the one before,
 * never letting the kernel follow a link:
 *
 * - On Linux, `/proc/self/fd/<fd>/<name>` names `<name>` inside the directory that descriptor `<fd>` holds,
 *   wherever that directory is now; opened with `O_NOFOLLOW` it is `openat(fd, name, O_NOFOLLOW)`.
 *   Intermediate components are opened with `O_DIRECTORY` too, so the kernel enters neither a file nor a link.
 * - A symbolic link is never opened. Its target is read (`readlink`) and walked by the same rules: a relative
 *   target from the link's directory, an absolute one only when it names the scope or something under it,
 *   from the scope's descriptor. `..` is never handed to the kernel either: the walk keeps every directory
 *   it opened and steps back to the one it came from, and a `..` above the scope is refused.
 *
 * Elsewhere (macOS, Windows, or Linux without /proc) there is no such path and Node has no openat, so every call
 * is refused with a configuration error: the server does not fall back to checks that a rename defeats.
 *
 * What stays outside this guarantee: a directory the walk already holds may be moved out of the scope by
 * someone with write access to both (then the data went with it, as any `mv` would take it).
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import { ConfigError, code, NotFoundError, rootEnv, ScopeError, scopeRoot } from './scope.js';

/** More links than this on one path is a loop, as the kernel's own limit (40) says. */
const maxLinks = 40;

/** Flags for opening a directory: never through a link, never blocking. */
export const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** `name` inside the directory that `dir` holds, resolved by the kernel relative to the descriptor. */
export function inside(dir: fs.FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
}

let procChecked = false;

/** Refuses to work where descriptor-relative paths do not exist, rather than fall back to racy path checks. */
async function requireProcFd(): Promise<void> {
  if (procChecked) return;
  const reason =
    process.platform !== 'linux'
      ? `on ${process.platform}`
      : await fs.access('/proc/self/fd').then(
          () => null,
          () => 'without /proc mounted',
        );
  if (reason !== null) {
    throw new ConfigError(
      `This server opens every path relative to an open directory through /proc/self/fd, which it cannot do ${reason}; ` +
        'it refuses every call instead of checking paths in a way a concurrent rename can defeat.',
    );
  }
  procChecked = true;
}

interface Step {
  readonly handle: fs.FileHandle;
  /** The component this directory was opened as ('' for the scope itself). */
  readonly name: string;
}

/**
 * One resolution: the directories opened so far (the scope first) and the final component, not yet opened.
 * Every method may move the walk (a link on the way); `close` releases every descriptor it holds.
 */
export class Walk {
  private readonly steps: Step[];
  private links = 0;
  /** The last component, inside `dir`; null when the walk ends at `dir` itself. */
  name: string | null = null;
  /** True once a link was followed in the last component (a write then never creates the link's target). */
  linked = false;

  private constructor(
    readonly root: string,
    rootHandle: fs.FileHandle,
    /** The client's path, as quoted in messages. */
    readonly display: string,
  ) {
    this.steps = [{ handle: rootHandle, name: '' }];
  }

  /** Opens the scope directory and walks to `segments` (already checked lexically). */
  static async open(segments: readonly string[], display: string): Promise<Walk> {
    await requireProcFd();
    const root = await scopeRoot();
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(root, directoryFlags);
    } catch (error) {
      // Gone or replaced since scopeRoot resolved it; anything else (EMFILE, EACCES) is not a configuration problem.
      if (!['ENOENT', 'ENOTDIR', 'ELOOP'].includes(code(error) ?? '')) throw error;
      throw new ConfigError(`${rootEnv} does not name an existing directory.`);
    }
    const walk = new Walk(root, handle, display);
    try {
      await walk.resolve(segments);
      return walk;
    } catch (error) {
      await walk.close();
      throw error;
    }
  }

  /** The directory the final component is in. */
  get dir(): fs.FileHandle {
    return (this.steps.at(-1) as Step).handle;
  }

  /** The path of the final component relative to the scope, links resolved, as the client sees paths. */
  canonical(): string[] {
    const names = this.steps.slice(1).map((step) => step.name);
    return this.name === null ? names : [...names, this.name];
  }

  /** Releases every descriptor; safe to call twice. */
  async close(): Promise<void> {
    const steps = this.steps.splice(0);
    await Promise.allSettled(steps.map((step) => step.handle.close()));
  }

  private outside(): ScopeError {
    return new ScopeError(`${JSON.stringify(this.display)} resolves outside the scope directory through a symbolic link; refused.`);
  }

  private missing(notDirectory: boolean): NotFoundError {
    return new NotFoundError(`${JSON.stringify(this.display)} does not exist.`, notDirectory);
  }

  /** Walks `segments` from the current directory; every component but the last is opened as a directory. */
  private async resolve(segments: readonly string[]): Promise<void> {
    const pending = [...segments];
    this.name = null;
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      if (next === '..') {
        if (this.steps.length === 1) throw this.outside();
        await (this.steps.pop() as Step).handle.close();
      } else if (pending.length === 0) {
        this.name = next;
      } else {
        const opened = await this.openDirectory(next);
        if (opened === 'link') pending.unshift(...(await this.readLink(next)));
        else if (opened === 'not-directory') throw this.missing(true);
        else this.steps.push({ handle: opened, name: next });
      }
    }
  }

  /**
   * Opens `name` in the current directory as a directory, without following it. When the open and the
   * lstat that explains its failure disagree (the entry was swapped in between), it is tried again.
   */
  private async openDirectory(name: string): Promise<fs.FileHandle | 'link' | 'not-directory'> {
    for (let attempt = 0; attempt < maxLinks; attempt += 1) {
      try {
        return await fs.open(inside(this.dir, name), directoryFlags);
      } catch (error) {
        const reason = code(error);
        if (reason === 'ENOENT') throw this.missing(false);
        // O_DIRECTORY | O_NOFOLLOW answers ENOTDIR for a link as for a file: lstat tells them apart.
        if (reason !== 'ENOTDIR' && reason !== 'ELOOP') throw error;
      }
      const kind = await this.kindOf(name);
      if (kind === 'missing') throw this.missing(false);
      if (kind !== 'directory') return kind;
    }
    throw new ScopeError(`${JSON.stringify(this.display)} kept changing while it was opened; refused.`);
  }

  /** What `name` in the current directory is right now, without following it. */
  async kindOf(name: string): Promise<'link' | 'directory' | 'not-directory' | 'missing'> {
    try {
      const stats = await fs.lstat(inside(this.dir, name));
      return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'directory' : 'not-directory';
    } catch (error) {
      if (code(error) === 'ENOENT') return 'missing';
      throw error;
    }
  }

  /**
   * The components a link's target stands for, from the directory the walk must then be in. An absolute
   * target must name the scope or something under it: the walk goes back to the scope's descriptor.
   */
  private async readLink(name: string): Promise<string[]> {
    if (++this.links > maxLinks) throw new ScopeError(`${JSON.stringify(this.display)} is a loop of symbolic links.`);
    let target: string;
    try {
      target = await fs.readlink(inside(this.dir, name));
    } catch (error) {
      if (code(error) === 'EINVAL') return [name]; // no longer a link: walk it again as what it is now
      if (code(error) === 'ENOENT') throw this.missing(false);
      throw error;
    }
    const split = (text: string): string[] => text.split('/').filter((part) => part !== '' && part !== '.');
    if (!target.startsWith('/')) return split(target);
    const prefix = this.root.endsWith('/') ? this.root : `${this.root}/`;
    if (target !== this.root && !target.startsWith(prefix)) throw this.outside();
    await Promise.allSettled(this.steps.splice(1).map((step) => step.handle.close()));
    return split(target.slice(this.root.length));
  }

  /** The final component is (or was) a link: walk its target instead. */
  async follow(): Promise<void> {
    if (this.name === null) return;
    const rest = await this.readLink(this.name);
    this.linked = true;
    await this.resolve(rest);
  }

  /** The final component's status, links followed (fstatat without following, then the walk does). */
  async stat(): Promise<Stats> {
    for (;;) {
      if (this.name === null) return this.dir.stat();
      let stats: Stats;
      try {
        stats = await fs.lstat(inside(this.dir, this.name));
      } catch (error) {
        if (code(error) === 'ENOENT') throw this.missing(false);
        throw error;
      }
      if (!stats.isSymbolicLink()) return stats;
      await this.follow();
    }
  }

  /** Opens the final component as a directory (links followed) and makes it the walk's directory. */
  async enter(): Promise<void> {
    while (this.name !== null) {
      const opened = await this.openDirectory(this.name);
      if (opened === 'link') await this.follow();
      else if (opened === 'not-directory') throw new ScopeError(`${JSON.stringify(this.display)} is not a directory.`);
      else {
        this.steps.push({ handle: opened, name: this.name });
        this.name = null;
      }
    }
  }
}

/** Runs `body` on a walk to `segments`, and closes the walk whatever happens. */
export async function withWalk<T>(
  segments: readonly string[],
  display: string,
  body: (walk: Walk) => Promise<T>,
): Promise<T> {
  const walk = await Walk.open(segments, display);
  try {
    return await body(walk);
  } finally {
    await walk.close();
  }
}
