import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * READMEs tell the truth about the tree: each states its folder's contract (a title, then a
 * paragraph of prose before any table or list), every file or folder a README names in backticks
 * exists (a path relative to the README or to a top folder; a bare file name in the README's own
 * folder or below it, or in a top folder), every folder of code has a README or is named in its
 * parent's, and src/README.md names each screen's tests.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', '.git', 'dist', '.build', 'data', 'test-results']);
const readmes = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : readmes(p);
    return e.name === 'README.md' ? [p] : [];
  });

/** Made by a run, not kept in the tree. */
const GENERATED = ['e2e/.screens', 'test-results'];
/** Backticked names that look like a path in this repository: a slash or a file extension. */
function named(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/[:,;.]$/, ''))
    .filter((p) => /^[\w.-]+(\/[\w.-]+)*\/?$/.test(p) && !/^\d|^\.\.?$|^https?/.test(p))
    .filter((p) => p.includes('/') && (p.endsWith('/') || /\.\w+$/.test(p)))
    .filter((p) => !/^(GET|POST|\/|\.\.?\/|\.build|dist\/|data\/)/.test(p))
    .filter((p) => !GENERATED.some((g) => p.startsWith(g)));
}

/** A README may name a path from its own folder or from a top folder of the repository. */
const BASES = ['.', 'src', 'server', 'workers', 'tests', 'e2e'];

/** Backticked bare file names (`users.ts`): no slash, a source file's extension. */
function namedFiles(text: string): string[] {
  return [...text.matchAll(/`([\w.-]+\.(?:tsx?|mjs|css|html|json|sql|md))`/g)].map((m) => m[1]!);
}

/** Every file name below `dir` (the README's own folder and its subfolders). */
const filesBelow = (dir: string): Set<string> =>
  new Set(
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (!e.isDirectory()) return [e.name];
      return SKIP.has(e.name) ? [] : [...filesBelow(path.join(dir, e.name))];
    }),
  );

function missing(readme: string): string[] {
  const dir = path.dirname(readme);
  const text = fs.readFileSync(readme, 'utf8');
  const bases = BASES.map((b) => path.join(ROOT, b)).concat(dir);
  const below = filesBelow(dir);
  const paths = named(text).filter((p) => !bases.some((base) => fs.existsSync(path.join(base, p))));
  const files = namedFiles(text).filter(
    (f) => !below.has(f) && !bases.some((base) => fs.existsSync(path.join(base, f))),
  );
  return [...paths, ...files].map((p) => `${path.relative(ROOT, readme)}: ${p}`);
}

/** A title line, then a first paragraph of prose (not a table or a list) saying what the folder is for. */
function statesContract(text: string): boolean {
  const [title, ...rest] = text.split('\n');
  const paragraph =
    rest
      .join('\n')
      .trim()
      .split(/\n\s*\n/)[0] ?? '';
  return (
    /^# \S/.test(title ?? '') &&
    !/^\s*([|>-]|\d+\.)/.test(paragraph) &&
    paragraph.replace(/\s+/g, ' ').length >= 80
  );
}

/** Folders of code: each has a README, or its parent's README names it (`yahoo/`). */
const CODE = ['src', 'server', 'workers', 'tests', 'e2e'];
/** Screen folders are listed by src/README.md's table instead (checked below). */
const LISTED_ELSEWHERE = /^src\/screens\/(?!_parts$)[^/]+$/;
const folders = (dir: string): string[] =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.'))
    .flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      return [rel, ...folders(rel)];
    });

function undescribed(dir: string): boolean {
  if (LISTED_ELSEWHERE.test(dir) || fs.existsSync(path.join(ROOT, dir, 'README.md'))) return false;
  const parent = path.join(ROOT, path.dirname(dir), 'README.md');
  return !(fs.existsSync(parent) && fs.readFileSync(parent, 'utf8').includes(`\`${path.basename(dir)}/`));
}

describe('READMEs', () => {
  const files = readmes(ROOT);

  it('every path a README names exists', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(missing)).toEqual([]);
  });

  it('each README states its contract before any table or list', () => {
    const vague = files.filter((f) => !statesContract(fs.readFileSync(f, 'utf8')));
    expect(vague.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('every folder of code has a README or is named in its parent README', () => {
    expect(CODE.flatMap(folders).filter(undescribed)).toEqual([]);
  });

  it("src/README.md names each screen's tests, and they exist", () => {
    const text = fs.readFileSync(path.join(ROOT, 'src/README.md'), 'utf8');
    const rows = new Map(
      [...text.matchAll(/^\| `(\w+)` \|(.*)\|\s*$/gm)].map((m) => [m[1]!, m[2]!] as const),
    );
    const screens = fs
      .readdirSync(path.join(ROOT, 'src/screens'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== '_parts')
      .map((d) => d.name);
    expect(screens.filter((s) => !rows.has(s))).toEqual([]);
    const tests = [...rows.values()].flatMap((cell) =>
      [...cell.matchAll(/`([^`]+\.(?:spec|test)\.tsx?)`/g)].map((m) => m[1]!),
    );
    expect(tests.length).toBeGreaterThan(screens.length);
    expect(tests.filter((t) => !fs.existsSync(path.join(ROOT, t)))).toEqual([]);
  });

  it('the checks can fail', () => {
    expect(namedFiles('`users.ts` and `a/b.ts`, `x.tsx`')).toEqual(['users.ts', 'x.tsx']);
    expect(statesContract('# x\n\n| File | Contract |\n|---|---|\n')).toBe(false);
    expect(statesContract('# x\n\nTests.\n')).toBe(false);
    expect(statesContract(`# x\n\n${'The one place where a thing is done, and why. '.repeat(2)}\n`)).toBe(
      true,
    );
    expect(named('see `server/nope/x.ts` and `a/b/`, not `a.tsx`, `GET /api` or `1.5`')).toEqual([
      'server/nope/x.ts',
      'a/b/',
    ]);
  });
});
