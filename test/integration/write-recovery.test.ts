import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { bannerMark } from '../../src/emit/index.js';
import { buildProject } from '../support/build-project.js';
import { loadProject } from '../../src/load/index.js';
import {
  applyActions,
  inspectWrites,
  pendingFolder,
  recoverWrites,
  SimulatedCrash,
  WriteError,
  writeProject,
  type WriteAction,
  type WritePoint,
} from '../../src/write/index.js';
import { listTree, repoRoot, runIn } from '../support/golden.js';
import { plantCurrentJournal } from '../support/planted.js';

// Crashes simulated in-process at every point of a write, so recovery is tested step by step and
// deterministically; test/integration/kill.test.ts does the same with real SIGKILLs at random instants.
const dir = path.join(repoRoot, '.test-out', 'write-recovery');

/** Every file under `dir` with its bytes. */
function snapshot(root: string = dir): Record<string, string> {
  return Object.fromEntries(listTree(root).map((f) => [f, readFileSync(path.join(root, f)).toString('base64')]));
}

function seedOld(): void {
  rmSync(dir, { recursive: true, force: true });
  const files: Record<string, string> = {
    'a/first.ts': 'old first\n',
    'a/gone.ts': 'old gone\n',
    'a/same.ts': 'same\n',
    'h/old-name.ts': 'export const oldName = 1;\n',
    'x/a.ts': 'A\n',
    'x/b.ts': 'B\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

// An update, a removal, a create in new folders, a renamed handler and a rename chain (x/a -> x/b -> x/c).
const actions: WriteAction[] = [
  { kind: 'update', path: 'a/first.ts', ownership: 'generated', contents: 'new first\n' },
  { kind: 'remove', path: 'a/gone.ts', ownership: 'stale' },
  { kind: 'create', path: 'b/c/new.ts', ownership: 'generated', contents: 'new\n' },
  {
    kind: 'move',
    path: 'h/new-name.ts',
    from: 'h/old-name.ts',
    ownership: 'scaffold',
    contents: 'export const newName = 1;\n',
  },
  { kind: 'move', path: 'x/b.ts', from: 'x/a.ts', ownership: 'scaffold', contents: 'A2\n' },
  { kind: 'move', path: 'x/c.ts', from: 'x/b.ts', ownership: 'scaffold', contents: 'B2\n' },
];

const same = (a: WritePoint) => (b: WritePoint) => a.phase === b.phase && a.index === b.index;
const committed = (p: WritePoint) => !(p.phase === 'stage' || (p.phase === 'commit' && p.index === 0));

let oldTree: Record<string, string>;
let newTree: Record<string, string>;
let points: WritePoint[];

beforeEach(() => {
  seedOld();
  oldTree = snapshot();
  points = [];
  applyActions(dir, actions, {
    crashAt: (p) => {
      points.push(p);
      return false;
    },
  });
  newTree = snapshot();
  seedOld();
});

describe('recovery after a crash', () => {
  it('the plain run goes from the old tree to the new one through every point, leaving nothing behind', () => {
    expect(newTree).toEqual({
      'a/first.ts': Buffer.from('new first\n').toString('base64'),
      'a/same.ts': Buffer.from('same\n').toString('base64'),
      'b/c/new.ts': Buffer.from('new\n').toString('base64'),
      'h/new-name.ts': Buffer.from('export const newName = 1;\n').toString('base64'),
      'x/b.ts': Buffer.from('A2\n').toString('base64'),
      'x/c.ts': Buffer.from('B2\n').toString('base64'),
    });
    expect(points.map((p) => `${p.phase} ${p.index}`)).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `stage ${i}`),
      'commit 0',
      'commit 1',
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `apply ${i}`),
      'sync 0',
      'finish 0',
    ]);
  });

  it('a crash at any point is finished (after the commit point) or discarded (before it) by the next run', () => {
    for (const point of points) {
      seedOld();
      expect(() => applyActions(dir, actions, { crashAt: same(point) }), `${point.phase} ${point.index}`).toThrow(
        SimulatedCrash,
      );
      const found = inspectWrites(dir);
      const expected = point.phase === 'finish' || !committed(point) ? 'staged' : 'committed';
      expect(found?.run, `${point.phase} ${point.index}`).toBe(expected);
      if (!committed(point)) expect(withoutPending(snapshot()), `${point.phase} ${point.index}`).toEqual(oldTree);
      recoverWrites(dir);
      expect(snapshot(), `${point.phase} ${point.index}`).toEqual(committed(point) ? newTree : oldTree);
      expect(inspectWrites(dir)).toBe(null);
    }
  });

  it('flushes to the disk only a run that replaces, moves or removes a file the user owns', () => {
    const journalAfterCommit = (run: WriteAction[]): unknown => {
      seedOld();
      expect(() => applyActions(dir, run, { crashAt: same({ phase: 'commit', index: 1 }) })).toThrow(SimulatedCrash);
      const journal = JSON.parse(readFileSync(path.join(dir, pendingFolder, 'journal.json'), 'utf8')) as unknown;
      recoverWrites(dir);
      return journal;
    };
    const generatedOnly = actions.filter((a) => a.kind !== 'move');
    const newUserFile: WriteAction = { kind: 'create', path: 'h/stub.ts', ownership: 'scaffold', contents: 'stub\n' };
    const userEdit: WriteAction = { kind: 'update', path: 'x/a.ts', ownership: 'user-edit', contents: 'A3\n' };
    expect(journalAfterCommit(actions)).toMatchObject({ flush: true });
    expect(journalAfterCommit([...generatedOnly, newUserFile])).toMatchObject({ flush: false });
    expect(journalAfterCommit([...generatedOnly, userEdit])).toMatchObject({ flush: true });
    // Recovery does not depend on flushing: a crash at any point of an unflushed run is finished or discarded too.
    seedOld();
    const before = snapshot();
    const reached: WritePoint[] = [];
    applyActions(dir, generatedOnly, { crashAt: (p) => reached.push(p) < 0 });
    const after = snapshot();
    expect(reached.length).toBe(10);
    for (const point of reached) {
      seedOld();
      expect(() => applyActions(dir, generatedOnly, { crashAt: same(point) })).toThrow(SimulatedCrash);
      recoverWrites(dir);
      expect(snapshot(), `${point.phase} ${point.index}`).toEqual(committed(point) ? after : before);
    }
  });

  it('a crash while recovering is recovered by the run after it', () => {
    for (const k of [0, 3, 7]) {
      seedOld();
      expect(() => applyActions(dir, actions, { crashAt: same({ phase: 'apply', index: 4 }) })).toThrow(SimulatedCrash);
      expect(() => recoverWrites(dir, { crashAt: same({ phase: 'apply', index: k }) })).toThrow(SimulatedCrash);
      recoverWrites(dir);
      expect(snapshot()).toEqual(newTree);
    }
  });

  it('a disk failure after the commit point is undone in-process; a crash while undoing, by the next run', () => {
    for (const k of [0, 2, 7]) {
      seedOld();
      expect(() => applyActions(dir, actions, { failAt: same({ phase: 'apply', index: k }) })).toThrow(
        new WriteError('could not write (EIO); nothing was changed'),
      );
      expect(snapshot()).toEqual(oldTree);
      expect(() =>
        applyActions(dir, actions, {
          failAt: same({ phase: 'apply', index: k }),
          crashAt: same({ phase: 'rollback', index: 7 - k }),
        }),
      ).toThrow(SimulatedCrash);
      expect(inspectWrites(dir)?.run).toBe('rolling-back');
      recoverWrites(dir);
      expect(snapshot()).toEqual(oldTree);
    }
  });

  it('a disk failure while staging leaves the tree and its folders as they were', () => {
    for (const k of [0, 5]) {
      expect(() => applyActions(dir, actions, { failAt: same({ phase: 'stage', index: k }) })).toThrow(WriteError);
      expect(snapshot()).toEqual(oldTree);
      expect(existsSync(path.join(dir, 'b'))).toBe(false);
      expect(existsSync(path.join(dir, pendingFolder))).toBe(false);
    }
  });

  it('repairs set-aside files of older writers (root, src/, test/): a lost original comes back, temporaries go', () => {
    rmSync(dir, { recursive: true, force: true });
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    put('src/generated/a.gen.ts', 'new a\n');
    put('src/generated/a.gen.ts.mcp-gen-123.bak', 'old a\n');
    put('src/handlers/tools/b.ts.mcp-gen-123.bak', 'export const b = 1;\n');
    put('test/contract-plan.gen.ts.mcp-gen-123.tmp', 'half\n');
    put('README.md.mcp-gen-77.tmp', 'half\n');
    put('other/c.ts.mcp-gen-1.tmp', 'not ours to judge\n');
    expect(inspectWrites(dir)).toEqual({
      run: null,
      changes: 0,
      strays: [
        'README.md.mcp-gen-77.tmp',
        'src/generated/a.gen.ts.mcp-gen-123.bak',
        'src/handlers/tools/b.ts.mcp-gen-123.bak',
        'test/contract-plan.gen.ts.mcp-gen-123.tmp',
      ],
    });
    recoverWrites(dir);
    expect(listTree(dir)).toEqual(['other/c.ts.mcp-gen-1.tmp', 'src/generated/a.gen.ts', 'src/handlers/tools/b.ts']);
    expect(readFileSync(path.join(dir, 'src/generated/a.gen.ts'), 'utf8')).toBe('new a\n');
    expect(readFileSync(path.join(dir, 'src/handlers/tools/b.ts'), 'utf8')).toBe('export const b = 1;\n');
  });

  it('leaves alone the pending folder of a run that is still writing', () => {
    mkdirSync(path.join(dir, pendingFolder));
    writeFileSync(path.join(dir, pendingFolder, 'owner'), `${process.ppid}\n`);
    expect(() => recoverWrites(dir)).toThrow(/another mcp-gen run \(process \d+\) is writing this folder/);
    expect(() => applyActions(dir, actions)).toThrow(WriteError);
    expect(withoutPending(snapshot())).toEqual(oldTree);
  });

  it('refuses a journal whose paths leave the output folder, touching nothing', () => {
    plantCurrentJournal(dir, [{ path: '../evil.ts', contents: 'evil\n' }]);
    const before = snapshot();
    expect(() => recoverWrites(dir)).toThrow(/it names "\.\.\/evil\.ts", outside the project; nothing was changed/);
    expect(snapshot()).toEqual(before);
    expect(existsSync(path.join(dir, '..', 'evil.ts'))).toBe(false);
  });
});

describe('generate after a crash', () => {
  const manifest = path.join(repoRoot, 'test', 'fixtures', 'valid', 'minimal', 'manifest.yaml');
  const pong =
    '  pong:\n    description: Answer with ping, the other way round.\n' +
    '    annotations: { readOnlyHint: true }\n    input: { type: object, additionalProperties: false }\n';

  it('--check reports the interrupted run and exits 1; generate finishes it', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(manifest, path.join(dir, 'mcp.yaml'));
    expect((await runIn(dir, ['generate'])).code).toBe(0);
    writeFileSync(path.join(dir, 'mcp.yaml'), `${readFileSync(manifest, 'utf8')}${pong}`);
    const options = resolveOptions({ manifest: path.join(dir, 'mcp.yaml') }, dir);
    const existing = loadProject(dir);
    const { files } = await buildProject(options, '0.0.0', existing, dir);
    expect(() =>
      writeProject(dir, files, existing.previouslyGenerated ?? [], 'write', bannerMark, {
        crashAt: same({ phase: 'apply', index: 1 }),
      }),
    ).toThrow(SimulatedCrash);
    const check = await runIn(dir, ['generate', '--check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('');
    expect(check.stderr).toMatch(
      new RegExp(
        String.raw`^mcp\.yaml: an interrupted run left \d+ change\(s\) half-applied ` +
          String.raw`\(journal in \.mcp-gen-pending/\); run "npx mcp-gen generate mcp\.yaml" to repair it\n`,
      ),
    );
    const dry = await runIn(dir, ['generate', '--dry-run']);
    expect(dry.stderr).toMatch(
      new RegExp(
        String.raw`^mcp-gen: note: an interrupted run left \d+ change\(s\) half-applied ` +
          String.raw`\(journal in \.mcp-gen-pending/\); generate repairs this first\n$`,
      ),
    );
    expect(existsSync(path.join(dir, pendingFolder))).toBe(true);
    const repair = await runIn(dir, ['generate']);
    expect(repair.code).toBe(0);
    expect(repair.stderr).toMatch(/^mcp-gen: note: finished the \d+ change\(s\) of an interrupted run\n$/);
    expect(repair.stdout).toMatch(/^mcp\.yaml: 0 created, 0 updated, 0 renamed, 0 removed, \d+ unchanged\n$/);
    expect(existsSync(path.join(dir, 'src/handlers/tools/pong.ts'))).toBe(true);
    expect(await runIn(dir, ['generate', '--check'])).toEqual({
      code: 0,
      stdout: 'mcp.yaml: generated files are up to date\n',
      stderr: '',
    });
  });
});

function withoutPending(tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).filter(([f]) => !f.startsWith(`${pendingFolder}/`)));
}
