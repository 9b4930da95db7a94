import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

/**
 * Fails the build when a chunk imports an entry chunk of its own build, read from the bundle the
 * bundler wrote. For the sync worker: WebKit evaluates a worker's entry a second time when a lazily
 * loaded chunk imports it back (Chromium and Firefox reuse the running module) — two workers in one
 * scope, each polling and posting.
 */
export function noEntryImports(): Plugin {
  return {
    name: 'bourse-no-entry-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const back = chunks.flatMap((c) =>
        [...c.imports, ...c.dynamicImports].filter((f) => entries.has(f)).map((f) => `${c.fileName} → ${f}`),
      );
      if (back.length > 0)
        this.error(
          `a chunk imports its entry chunk back (WebKit evaluates the entry twice): ${back.join(', ')}`,
        );
    },
  };
}

/**
 * Fails the build when an entry chunk needs more than `max` rounds of requests before it runs: the
 * file, then what it imports statically, one round per level of the longest chain (a module's
 * imports are asked for once it has arrived). For the sync worker: its first requests wait for
 * these rounds on a cold network.
 */
export function startRounds(max: number): Plugin {
  return {
    name: 'bourse-start-rounds',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
          .map((c) => [c.fileName, c]),
      );
      const chain = (file: string, seen: string[]): string[] => {
        if (seen.includes(file)) return seen;
        const longest = (chunks.get(file)?.imports ?? []).map((f) => chain(f, [...seen, file]));
        return longest.reduce((a, b) => (b.length > a.length ? b : a), [...seen, file]);
      };
      for (const c of chunks.values()) {
        const rounds = c.isEntry ? chain(c.fileName, []) : [];
        if (rounds.length > max)
          this.error(
            `${c.fileName} runs after ${rounds.length} rounds of requests (at most ${max}): ${rounds.join(' → ')}`,
          );
      }
    },
  };
}

const BACK_OFFICE = `${path.resolve('src/backoffice')}${path.sep}`;
const BACK_OFFICE_API = path.resolve('src/shared/backoffice.ts');
/** The areas `backoffice.ts` joins (src/shared/backoffice/): back-office code as much as the join. */
const BACK_OFFICE_AREAS = `${path.resolve('src/shared/backoffice')}${path.sep}`;

/** The modules of a bundle's chunks (Rollup's moduleIds), for the build checks below. */
function bundleModules(bundle: Rollup.OutputBundle): Array<{ file: string; id: string }> {
  return Object.values(bundle)
    .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
    .flatMap((c) => c.moduleIds.map((id) => ({ file: c.fileName, id })));
}

/**
 * Fails the app's build (pages and worker) if any of its chunks holds a module of the back office:
 * staff screens and calls are shipped to staff only, never to every customer's phone.
 */
export function noBackOffice(): Plugin {
  return {
    name: 'bourse-no-back-office',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = bundleModules(bundle).filter(
        ({ id }) => id.startsWith(BACK_OFFICE) || id === BACK_OFFICE_API || id.startsWith(BACK_OFFICE_AREAS),
      );
      if (found.length > 0)
        this.error(
          `the app's bundle holds back-office code: ${found.map((f) => `${f.file} ← ${path.relative('.', f.id)}`).join(', ')}`,
        );
    },
  };
}

/**
 * Fails the back office's build if it holds any of the app's own code but the shared rules
 * (src/shared) and the kit both apps draw with (src/common): its pages load nothing of the
 * customer app (no screens, worker, device store).
 */
export function backOfficeOnly(): Plugin {
  const src = `${path.resolve('src')}${path.sep}`;
  const shared = `${path.resolve('src/shared')}${path.sep}`;
  const common = `${path.resolve('src/common')}${path.sep}`;
  const workers = `${path.resolve('workers')}${path.sep}`;
  return {
    name: 'bourse-back-office-only',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = bundleModules(bundle).filter(
        ({ id }) =>
          (id.startsWith(src) &&
            !id.startsWith(BACK_OFFICE) &&
            !id.startsWith(shared) &&
            !id.startsWith(common)) ||
          id.startsWith(workers),
      );
      if (found.length > 0)
        this.error(
          `the back office's bundle holds app code: ${found.map((f) => path.relative('.', f.id)).join(', ')}`,
        );
    },
  };
}
