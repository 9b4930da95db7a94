import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders' contracts, read from the imports themselves (README.md "Layout"):
 * - `src/shared` imports nothing outside itself (but its schema library), and takes TypeBox's builders
 *   one by one (`import * as Type`), never its `Type` object, which holds every builder: the worker's
 *   and the back office's bundles then keep only the builders used (src/shared/contract/README.md);
 * - `src/build` is the build's (Node, vite.config.ts): it may import anything, and nothing imports it;
 * - `src/common` is both apps' kit (the back office's build may hold it): it imports packages and itself only;
 * - UI code (the rest of `src/`) imports only types from `workers/` and from the contract
 *   (`src/shared/contract`), so neither the worker nor the schemas end up in the UI bundle; it
 *   starts the worker with `new URL(…)`, which is not an import;
 * - `server/` and `workers/` reach into `src/` only through `#shared/*` (package.json "imports"),
 *   and neither imports the other;
 * - `server/lib` is infrastructure (server/lib/README.md): of the server it imports only itself,
 *   `db/` (not a migration), `deps.ts` and `config.ts` — no domain module;
 * - imports run one way: no module reaches itself again through its imports, type-only ones
 *   included (a registry and its members share a type from a third module, not from each other).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHARED_PACKAGES = new Set(['@sinclair/typebox']);
/** What server/lib may import of the server (paths without extension). */
const LIB_MAY_IMPORT = /^server\/(lib\/|db\/(?!migrations\/)|deps$|config$)/;

interface Import {
  spec: string;
  typeOnly: boolean;
  /** What the statement binds (`{ a, type B }`, `* as X`, `D`); empty for a side-effect or dynamic import. */
  names: string;
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
    out.push({ spec: m[4]!, typeOnly: Boolean(m[2]) || allTypes, names });
  }
  for (const m of text.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g))
    out.push({ spec: m[1]!, typeOnly: false, names: '' });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ spec: m[1]!, typeOnly: false, names: '' });
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
    if (imp.spec === '@sinclair/typebox' && !imp.typeOnly && /^\{[^}]*(?<!type\s+)\bType\b/.test(imp.names))
      return `${name}: src/shared takes TypeBox's builders one by one (import * as Type), not its Type object`;
    if (t.where === 'package')
      return SHARED_PACKAGES.has(imp.spec)
        ? null
        : `${name}: src/shared uses no package but its schema library`;
    return t.where === 'shared' || t.where === 'contract'
      ? null
      : `${name}: src/shared imports nothing outside itself`;
  }
  if (file.startsWith('src/build/')) return null;
  if (file.startsWith('src/common/') && t.where !== 'package' && !t.rel.startsWith('src/common/'))
    return `${name}: src/common (both apps' kit) imports packages and itself only`;
  if (t.rel.startsWith('src/build/'))
    return `${name}: src/build is the build's, imported by vite.config.ts alone`;
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
    // A decision lives in its domain, which the staff API and the console both call; the domain
    // never reaches up into either (only the composition root, server/*.ts, joins them).
    if (/^server\/(?!backoffice\/|ops\/)[\w-]+\//.test(file) && /^server\/(backoffice|ops)\//.test(t.rel))
      return `${name}: a domain module is called by the back office and the console, never imports them`;
  }
  return null;
}

/** The module a relative or `#shared/` specifier of `file` names, if it is one of `known`. */
function resolve(file: string, spec: string, known: Set<string>): string | null {
  const t = target(file, spec);
  if (t.where === 'package') return null;
  const base = t.rel.replace(/\?.*$/, '');
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (known.has(candidate)) return candidate;
  return null;
}

/** Every import circle (a strongly connected set of modules, or one importing itself), sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || edges.includes(frame.node)) found.push(members.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The import graph of `files` (`sourceOf` reads one), type-only imports included. */
function importGraph(files: string[], sourceOf: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          importsOf(sourceOf(file))
            .map((imp) => resolve(file, imp.spec, known))
            .filter((to): to is string => to !== null),
        ),
      ],
    ]),
  );
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

  it('imports run one way: no import circle', () => {
    const graph = importGraph(files, (f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));
    expect(circles(graph)).toEqual([]);
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
    expect(check('src/shared/contract/x.ts', "import { Type } from '@sinclair/typebox';")[0]).toMatch(
      /one by one/,
    );
    expect(check('src/shared/x.ts', "import { type Static, Type } from '@sinclair/typebox';")[0]).toMatch(
      /one by one/,
    );
    expect(
      check(
        'src/shared/x.ts',
        "import * as Type from '@sinclair/typebox';\nimport type { TSchema, Type as T } from '@sinclair/typebox';",
      ),
    ).toEqual([null, null]);
    expect(check('src/common/QrCode.tsx', "import { Button } from '../ui/Button';")[0]).toMatch(
      /itself only/,
    );
    expect(check('src/common/QrCode.tsx', "import qrcode from 'qrcode-generator';")).toEqual([null]);
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
    expect(check('server/wallet/payouts.ts', "import type { Staff } from '../backoffice/staff';")[0]).toMatch(
      /never imports them/,
    );
    expect(check('server/trading/x.ts', "import { run } from '../ops/commands/trading';")[0]).toMatch(
      /never imports them/,
    );
    expect(
      check(
        'server/ops/commands/wallet.ts',
        "import { approvePayout } from '../../wallet/payouts';\nimport { x } from '../cli';",
      ),
    ).toEqual([null, null]);
    expect(check('server/app.ts', "import { opsRoutes } from './backoffice/routes';")).toEqual([null]);
  });

  it('finds each kind of circle (the check can fail)', () => {
    const graphOf = (modules: Record<string, string>) =>
      circles(importGraph(Object.keys(modules), (f) => modules[f]!));
    // A registry importing its member, the member importing the registry's type back.
    expect(
      graphOf({
        'server/jobs/index.ts': "import { tradingJobs } from '../trading/jobs';",
        'server/trading/jobs.ts': "import type { Job } from '../jobs/index';",
      }),
    ).toEqual([['server/jobs/index.ts', 'server/trading/jobs.ts']]);
    // Three modules in a ring, through a dynamic import and `#shared/`, resolved to .tsx and index.
    expect(
      graphOf({
        'src/api/a.ts': "const b = import('./b');",
        'src/api/b/index.tsx': "export { c } from '#shared/c';",
        'src/shared/c.ts': "import type { A } from '../api/a';",
        'src/api/d.ts': "import { a } from './a';",
      }),
    ).toEqual([['src/api/a.ts', 'src/api/b/index.tsx', 'src/shared/c.ts']]);
    // The shared type moved to a third module: no circle.
    expect(
      graphOf({
        'server/jobs/index.ts': "import type { Job } from './job';\nimport { t } from '../trading/jobs';",
        'server/jobs/job.ts': "import type { Deps } from '../deps';",
        'server/trading/jobs.ts': "import type { Job } from '../jobs/job';",
      }),
    ).toEqual([]);
  });
});
