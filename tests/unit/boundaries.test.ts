import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders' contracts, read from the imports themselves (README.md "Layout"):
 * - `src/shared` imports nothing outside itself (but its schema library);
 * - UI code (the rest of `src/`) imports only types from `workers/` and from the contract
 *   (`src/shared/contract`), so neither the worker nor the schemas end up in the UI bundle; it
 *   starts the worker with `new URL(…)`, which is not an import;
 * - `server/` and `workers/` reach into `src/` only through `#shared/*` (package.json "imports"),
 *   and neither imports the other;
 * - `server/lib` is infrastructure (server/lib/README.md): of the server it imports only itself,
 *   `db/` (not a migration), `deps.ts` and `config.ts` — no domain module.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHARED_PACKAGES = new Set(['@sinclair/typebox']);
/** What server/lib may import of the server (paths without extension). */
const LIB_MAY_IMPORT = /^server\/(lib\/|db\/(?!migrations\/)|deps$|config$)/;

interface Import {
  spec: string;
  typeOnly: boolean;
}

/** Every static import/export-from, side-effect import and dynamic `import('…')` of a module. */
function importsOf(source: string): Import[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: Import[] = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statement)) {
    const names = m[3] ?? '';
    const braces = /^\{([\s\S]*)\}$/.exec(names.trim());
    const allTypes =
      braces !== null &&
      braces[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type '));
    out.push({ spec: m[4]!, typeOnly: Boolean(m[2]) || allTypes });
  }
  for (const m of text.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g))
    out.push({ spec: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

type Where = 'shared' | 'contract' | 'ui' | 'workers' | 'server' | 'other' | 'package';

/** Where a specifier written in `file` (relative to the repository) points. */
function target(file: string, spec: string): { where: Where; rel: string } {
  let rel: string;
  if (spec.startsWith('#shared/')) rel = `src/shared/${spec.slice('#shared/'.length)}`;
  else if (spec.startsWith('.')) rel = path.posix.join(path.posix.dirname(file), spec);
  else return { where: 'package', rel: spec };
  if (rel.startsWith('src/shared/contract/')) return { where: 'contract', rel };
  if (rel.startsWith('src/shared/')) return { where: 'shared', rel };
  if (rel.startsWith('src/')) return { where: 'ui', rel };
  if (rel.startsWith('workers/')) return { where: 'workers', rel };
  if (rel.startsWith('server/')) return { where: 'server', rel };
  return { where: 'other', rel };
}

/** The rule an import of `file` breaks, or null. */
function violation(file: string, imp: Import): string | null {
  const t = target(file, imp.spec);
  const name = `${file} imports '${imp.spec}'`;
  if (file.startsWith('src/shared/')) {
    if (t.where === 'package')
      return SHARED_PACKAGES.has(imp.spec)
        ? null
        : `${name}: src/shared uses no package but its schema library`;
    return t.where === 'shared' || t.where === 'contract'
      ? null
      : `${name}: src/shared imports nothing outside itself`;
  }
  if (file.startsWith('src/')) {
    if ((t.where === 'workers' || t.where === 'contract') && !imp.typeOnly)
      return `${name}: UI code imports only types from workers/ and the contract`;
    if (t.where === 'server') return `${name}: UI code never imports the server`;
    return null;
  }
  if (file.startsWith('server/') || file.startsWith('workers/')) {
    if ((t.where === 'shared' || t.where === 'contract') && !imp.spec.startsWith('#shared/'))
      return `${name}: reach src/shared through #shared/*`;
    if (t.where === 'ui') return `${name}: server/ and workers/ reach src/ only through #shared/*`;
    const other = file.startsWith('server/') ? 'workers' : 'server';
    if (t.where === other) return `${name}: server/ and workers/ do not import each other`;
    if (file.startsWith('server/lib/') && t.where === 'server' && !LIB_MAY_IMPORT.test(t.rel))
      return `${name}: server/lib is infrastructure and imports no domain module`;
  }
  return null;
}

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

describe('boundaries', () => {
  const files = ['src', 'workers', 'server'].flatMap(sources);

  it('reads the imports of every module', () => {
    expect(files.length).toBeGreaterThan(150);
    const withImports = files.filter(
      (f) => importsOf(fs.readFileSync(path.join(ROOT, f), 'utf8')).length > 0,
    );
    expect(withImports.length).toBeGreaterThan(files.length * 0.9);
  });

  it('no module crosses a boundary', () => {
    const broken = files.flatMap((file) =>
      importsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))
        .map((imp) => violation(file, imp))
        .filter((v): v is string => v !== null),
    );
    expect(broken).toEqual([]);
  });

  it('the server reads the environment only in config.ts (each variable in the README table)', () => {
    const readers = files.filter(
      (f) =>
        f.startsWith('server/') &&
        f !== 'server/config.ts' &&
        /process\.env\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(readers).toEqual([]);
    const config = fs.readFileSync(path.join(ROOT, 'server/config.ts'), 'utf8');
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const names = [...new Set([...config.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!))];
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => !readme.includes(n))).toEqual([]);
  });

  it('DOM tests fake the worker one way (tests/support/fake-worker.ts)', () => {
    const own = sources('tests/dom').filter((f) => {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      return /vi\.mock\('[./]*src\/api\/client'/.test(text) && !text.includes('support/fake-worker');
    });
    expect(own).toEqual([]);
  });

  it('catches each kind of crossing (the check can fail)', () => {
    const check = (file: string, source: string) => importsOf(source).map((imp) => violation(file, imp));
    expect(check('src/ui/X.tsx', "import { SPARK } from '../../workers/chart';")[0]).toMatch(/only types/);
    expect(check('src/ui/X.tsx', "import type { Frame } from '../../workers/chart';")).toEqual([null]);
    expect(check('src/ui/X.tsx', "import { type A, type B } from '../shared/contract/market';")).toEqual([
      null,
    ]);
    expect(
      check('src/ui/X.tsx', "import {\n  type A,\n  b,\n} from '../shared/contract/market';")[0],
    ).toMatch(/only types/);
    expect(check('src/ui/X.tsx', "const m = import('../../workers/chart');")[0]).toMatch(/only types/);
    expect(check('src/shared/rules.ts', "import { x } from '../ui/x';")[0]).toMatch(/nothing outside/);
    expect(check('src/shared/rules.ts', "import fs from 'node:fs';")[0]).toMatch(/no package/);
    expect(check('server/app.ts', "import { ERR } from '../src/shared/call';")[0]).toMatch(/#shared/);
    expect(check('workers/http.ts', "import { toast } from '../src/store/ui';")[0]).toMatch(/only through/);
    expect(check('workers/http.ts', "import { x } from '../server/lib/errors';")[0]).toMatch(/each other/);
    expect(check('server/app.ts', "import { ERR } from '#shared/call';")).toEqual([null]);
    expect(check('server/lib/route.ts', "import { x } from '../account/fund-password';")[0]).toMatch(
      /infrastructure/,
    );
    expect(check('server/lib/x.ts', "import { C } from '../db/migrations/048_order_charges';")[0]).toMatch(
      /infrastructure/,
    );
    expect(
      check('server/lib/x.ts', "import { withTx } from '../db/index';\nimport type { Deps } from '../deps';"),
    ).toEqual([null, null]);
  });
});
