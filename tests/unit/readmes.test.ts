import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * READMEs tell the truth about the tree: every file or folder a README names in backticks exists
 * (relative to the README or to the repository root), and src/README.md names each screen's tests.
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

function missing(readme: string): string[] {
  const dir = path.dirname(readme);
  return named(fs.readFileSync(readme, 'utf8')).flatMap((p) =>
    BASES.map((b) => path.join(ROOT, b))
      .concat(dir)
      .some((base) => fs.existsSync(path.join(base, p)))
      ? []
      : [`${path.relative(ROOT, readme)}: ${p}`],
  );
}

describe('READMEs', () => {
  const files = readmes(ROOT);

  it('every path a README names exists', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(missing)).toEqual([]);
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

  it('the check can fail', () => {
    expect(named('see `server/nope/x.ts` and `a/b/`, not `a.tsx`, `GET /api` or `1.5`')).toEqual([
      'server/nope/x.ts',
      'a/b/',
    ]);
  });
});
