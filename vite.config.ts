import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin, Rollup, UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { firstMessageFiles, LANGUAGES, type Language } from './src/i18n/languages';
import { PATHS } from './src/paths';
import { type AppRoute, firstRoute, ROUTES } from './src/routes';
import { type BootBuild, type BootTexts, bootScript, type FirstScreens } from './src/shell/boot';
import { runtimeCaching } from './workers/sw-cache';

const API_BASE = (process.env.VITE_API_BASE ?? '/api').replace(/\/$/, '');

/**
 * Writes .br and .gz beside every text asset of the build, served by the server as they are
 * (@fastify/static preCompressed): a phone on a slow network downloads a third of the bytes, and
 * nothing is compressed per request. sw.js stays plain: browsers fetch it fresh to find updates.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'bourse-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
            const p = path.join(dir, e.name);
            return e.isDirectory() ? walk(p) : [p];
          });
        for (const file of walk(outDir)) {
          if (!/\.(js|mjs|css|html|svg|json|webmanifest)$/.test(file) || path.basename(file) === 'sw.js')
            continue;
          const data = fs.readFileSync(file);
          if (data.length < 1024) continue;
          fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
          fs.writeFileSync(
            `${file}.br`,
            zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }
      },
    },
  };
}

/**
 * The entry pages' own stylesheets are written into the page as <style>, so the first paint waits
 * for no stylesheet request (Lighthouse: nothing render-blocking; CSP allows inline styles). The
 * <link> stays with media="not all" — never applied, never blocking: Vite's loader of lazy chunks
 * looks for it before adding the same stylesheet again, which would land later in the cascade
 * than the screens' own styles and override them.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'bourse-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"( crossorigin)? href="\/([^"]+\.css)">/g,
          (tag, _c, file) => {
            const asset = bundle[file];
            if (asset?.type !== 'asset') return tag;
            const css =
              typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
            if (css.includes('</style')) return tag;
            return `<style>${css}</style>\n    ${tag.replace('rel="stylesheet"', 'rel="stylesheet" media="not all"')}`;
          },
        );
      },
    },
  };
}

/**
 * What index.html's script preloads at each static path (src/shell/boot.ts): the screen the app's
 * own rule shows there first (`firstRoute`), signed out and in — its chunk and the chunks and
 * stylesheets that chunk imports, less what the page loads anyway — and the message files it waits
 * for in each language (`firstMessageFiles`).
 */
function firstScreens(bundle: Rollup.OutputBundle): FirstScreens {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const byModule = new Map(chunks.flatMap((c) => c.moduleIds.map((m) => [m, c] as const)));
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry && c.facadeModuleId === path.resolve('index.html'));
  const loaded = new Set<string>();
  const walk = (chunk: Rollup.OutputChunk, into: Set<string>) => {
    if (into.has(chunk.fileName) || loaded.has(chunk.fileName)) return;
    into.add(chunk.fileName);
    for (const file of chunk.imports) walk(byFile.get(file)!, into);
  };
  if (entry) walk(entry, loaded);

  const files: string[] = [];
  const index = (file: string) => {
    const at = files.indexOf(`/${file}`);
    return at >= 0 ? at : files.push(`/${file}`) - 1;
  };
  const areas = fs.readdirSync('locales/en').map((f) => path.basename(f, '.json'));
  const messageSets = new Map<string, number>();
  const out: FirstScreens = { files, screens: [], messages: [], paths: {} };
  const screenOf = new Map<AppRoute, number>();
  const screen = (route: AppRoute | undefined): number => {
    if (!route) return -1;
    const known = screenOf.get(route);
    if (known !== undefined) return known;
    const module = path.resolve(`src/screens/${route.screen}/${route.screen}Screen.tsx`);
    const chunk = byModule.get(module);
    if (!chunk) throw new Error(`no chunk for the screen of ${route.path} (${module})`);
    const own = new Set<string>();
    walk(chunk, own);
    const css = [...own].flatMap((f) => [...(byFile.get(f)!.viteMetadata?.importedCss ?? [])]);
    const key = JSON.stringify(route.messages ?? null);
    let messages = messageSets.get(key);
    if (messages === undefined) {
      const perLanguage: Partial<Record<Language, number[]>> = {};
      // Areas that share a chunk (the start screen's: `startScreen`) name it once.
      for (const lng of LANGUAGES)
        perLanguage[lng] = [
          ...new Set(
            firstMessageFiles(lng, route.messages, areas).map((p) => {
              const file = byModule.get(path.resolve(p.slice(1)))?.fileName;
              if (!file) throw new Error(`no chunk for ${p}`);
              return index(file);
            }),
          ),
        ];
      messages = out.messages.push(perLanguage) - 1;
      messageSets.set(key, messages);
    }
    const at = out.screens.push({ js: [...own].map(index), css: css.map(index), messages }) - 1;
    screenOf.set(route, at);
    return at;
  };
  for (const { path: p } of ROUTES)
    if (!/[:*]/.test(p)) out.paths[p] = [screen(firstRoute(p, false)), screen(firstRoute(p, true))];
  return out;
}

/**
 * Writes the static shell's script into index.html (src/shell/boot.ts), with the login screen's
 * title and subtitle in every language read from locales/ (the words the screen itself shows),
 * the built worker's file and the first screen's files at each path; and marks the page's scripts
 * as not needed for the first paint.
 */
function bootShell(): Plugin {
  const texts = Object.fromEntries(
    LANGUAGES.map((lng) => {
      const auth = JSON.parse(fs.readFileSync(`locales/${lng}/auth.json`, 'utf8'));
      return [lng, { title: auth.auth.login.title, subtitle: auth.auth.login.subtitle }];
    }),
  ) as BootTexts;
  return {
    name: 'bourse-boot-shell',
    transformIndexHtml: {
      // After the bundle: the file names are known (none in development).
      order: 'post',
      handler(html, ctx) {
        if (!html.includes('<script data-boot></script>')) return html;
        const bundle = ctx.bundle;
        const worker = Object.keys(bundle ?? {}).find((f) => /(^|\/)sync\.worker-[\w-]+\.js$/.test(f));
        const build: BootBuild = {
          texts,
          worker: worker ? `/${worker}` : null,
          first: bundle ? firstScreens(bundle) : { files: [], screens: [], messages: [], paths: {} },
        };
        return (
          html
            .replace('<script data-boot></script>', `<script>${bootScript(build)}</script>`)
            // The first paint is the static shell's, which needs none of the app's scripts: they are
            // not fetched as if it did (Lighthouse's model of a slow phone then stops counting them
            // as blocking it, which moved its first paint by a second at random).
            .replace(
              /<(script type="module"|link rel="modulepreload")( crossorigin)/g,
              '<$1 fetchpriority="low"$2',
            )
        );
      },
    },
  };
}

/**
 * React Router's production build in the app's bundle. Its package.json sends every import to its
 * development build (remix-run/react-router#12532, "temporary" since 7.0.2): dev-only warnings and
 * checks that run on every navigation and render. The production build is the same API from the
 * same version, without them. Tests and the dev server keep the development build.
 */
function reactRouterProduction(): Plugin {
  const dir = path.resolve('node_modules/react-router/dist/production');
  const files: Record<string, string> = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };
  return {
    name: 'bourse-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      const file = files[source];
      return file ? path.join(dir, file) : null;
    },
  };
}

const SRC = `${path.resolve('src')}${path.sep}`;
const WIDGET_ENTRY = path.resolve('src/widget/main.tsx');
/** What Rolldown's chunking pass tells of the module graph (its `ChunkingContext`). */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}
/** Per chunking pass, the app's own modules an entry imports, directly or not (static imports). */
const closures = new WeakMap<ChunkingContext, Map<string, Set<string>>>();

function ownModules(ctx: ChunkingContext, entry: string): Set<string> {
  let known = closures.get(ctx);
  if (!known) {
    known = new Map();
    closures.set(ctx, known);
  }
  let modules = known.get(entry);
  if (!modules) {
    const seen = new Set<string>();
    const visit = (m: string) => {
      if (seen.has(m)) return;
      seen.add(m);
      for (const next of ctx.getModuleInfo(m)?.importedIds ?? []) visit(next);
    };
    visit(entry);
    // The app's own modules only (packages stay where sharing puts them).
    modules = new Set([...seen].filter((m) => m.startsWith(SRC)));
    known.set(entry, modules);
  }
  return modules;
}

/**
 * The UI kit, the shell and the worker's client as two chunks every page loads from the start
 * (`kit`, and first `widget-kit`: what the quote widget uses of them and everything that needs).
 * Split by sharing they were seven small chunks a first screen waited for as a second round of
 * requests (bench:ui: login 12 → 7 files, home 18 → 12; on a throttled phone over HTTP/1.1 home's
 * largest paint 4.8 → 4.3 s). The widget (iframe.html, on partner sites) loads only `widget-kit`:
 * one kit chunk made it download the whole kit (107 → 128 KB gzip). Its entry stays out, as its
 * code must run only in iframe.html.
 */
function widgetKit(id: string, ctx: ChunkingContext): string | null {
  return id !== WIDGET_ENTRY && ownModules(ctx, WIDGET_ENTRY).has(id) ? 'widget-kit' : null;
}

/**
 * Fails the build when a chunk imports an entry chunk of its own build, read from the bundle the
 * bundler wrote. For the sync worker: WebKit evaluates a worker's entry a second time when a lazily
 * loaded chunk imports it back (Chromium and Firefox reuse the running module) — two workers in one
 * scope, each polling and posting (issue 29).
 */
function noEntryImports(): Plugin {
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
function startRounds(max: number): Plugin {
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

const OPS_MODE = 'ops';
const BACK_OFFICE = `${path.resolve('src/backoffice')}${path.sep}`;
const BACK_OFFICE_API = path.resolve('src/shared/backoffice.ts');

/** The modules of a bundle's chunks (Rollup's moduleIds), for the build checks below. */
function bundleModules(bundle: Rollup.OutputBundle): Array<{ file: string; id: string }> {
  return Object.values(bundle)
    .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
    .flatMap((c) => c.moduleIds.map((id) => ({ file: c.fileName, id })));
}

/**
 * Fails the app's build (pages and worker) if any of its chunks holds a module of the back office
 * (issue 33): staff screens and calls are shipped to staff only, never to every customer's phone.
 */
function noBackOffice(): Plugin {
  return {
    name: 'bourse-no-back-office',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = bundleModules(bundle).filter(
        ({ id }) => id.startsWith(BACK_OFFICE) || id === BACK_OFFICE_API,
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
 * (src/shared): its pages load nothing of the customer app (no screens, worker, device store).
 */
function backOfficeOnly(): Plugin {
  const src = `${path.resolve('src')}${path.sep}`;
  const shared = `${path.resolve('src/shared')}${path.sep}`;
  const workers = `${path.resolve('workers')}${path.sep}`;
  return {
    name: 'bourse-back-office-only',
    apply: 'build',
    generateBundle(_options, bundle) {
      const found = bundleModules(bundle).filter(
        ({ id }) =>
          (id.startsWith(src) && !id.startsWith(BACK_OFFICE) && !id.startsWith(shared)) ||
          id.startsWith(workers),
      );
      if (found.length > 0)
        this.error(
          `the back office's bundle holds app code: ${found.map((f) => path.relative('.', f.id)).join(', ')}`,
        );
    },
  };
}

/**
 * The back office (`vite build --mode ops`, issue 33): its own entry (src/backoffice/index.html),
 * its own chunks in dist/ops, served by the server at /ops/ under a policy of its own. A build of
 * its own, so nothing of it touches the app's chunks or service worker.
 */
function backOfficeBuild(): UserConfig {
  return {
    root: path.resolve('src/backoffice'),
    base: '/ops/',
    publicDir: false,
    plugins: [react(), reactRouterProduction(), backOfficeOnly(), precompress()],
    build: {
      outDir: path.resolve('dist/ops'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
    },
    server: { port: 5174, proxy: { '/api': 'http://localhost:8080' } },
  };
}

/** The screen at the start URL (the installed app opens there): every signed-in start shows it. */
const START = ROUTES.find((r) => r.path === PATHS.home)!;
const START_SCREEN = path.resolve(`src/screens/${START.screen}/${START.screen}Screen.tsx`);
const SCREENS = `${path.resolve('src/screens')}${path.sep}`;

/**
 * The start screen as one chunk with the screens' parts it uses (`home`), and the message areas it
 * waits for as one file per language (`home-<lang>`). Split by sharing they were five chunks, three
 * stylesheets and two message files: on a phone over HTTP/1.1 (six connections, a round trip each)
 * they were a third wave of requests. The screens that share those parts load `home` for them.
 */
function startScreen(id: string, ctx: ChunkingContext): string | null {
  if (id.startsWith(SCREENS) && ownModules(ctx, START_SCREEN).has(id)) return 'home';
  const messages = /[\\/]locales[\\/](\w+)[\\/](\w+)\.json$/.exec(id);
  return messages && START.messages?.some((a) => a === messages[2]) ? `home-${messages[1]}` : null;
}

/**
 * The PWA build (index.html + the embeddable iframe.html widget), its service worker, and the
 * Vitest projects: unit (pure logic, node), dom (components and the device store, happy-dom),
 * server (the API against real SQLite and PostgreSQL).
 */
export default defineConfig(({ mode }) =>
  mode === OPS_MODE
    ? backOfficeBuild()
    : {
        plugins: [
          react(),
          reactRouterProduction(),
          noBackOffice(),
          VitePWA({
            registerType: 'prompt',
            injectRegister: false,
            // public/manifest.webmanifest is the manifest (shortcuts, screenshots, maskable icon).
            manifest: false,
            includeAssets: [],
            workbox: {
              // The shell: both pages, hashed assets (locales are chunks), icons, the manifest.
              globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
              // The back office (dist/ops, a build of its own) is no part of the app's shell.
              globIgnores: ['**/screenshots/**', 'icons/shortcut-*.png', 'ops/**'],
              navigateFallback: '/index.html',
              navigateFallbackDenylist: [
                new RegExp(`^${API_BASE}/`),
                /^\/healthz/,
                /^\/iframe\.html/,
                /^\/ops(\/|$)/,
              ],
              // iframe.html?symbol=… (and any page with a query) is served from the precache.
              ignoreURLParametersMatching: [/.*/],
              cleanupOutdatedCaches: true,
              // News and news images only, built from the contract (workers/sw-cache.ts).
              runtimeCaching: runtimeCaching(API_BASE),
              // A click on a fired-alert notification opens the app at the alert (public/sw-notify.js).
              importScripts: ['/sw-notify.js'],
            },
            devOptions: { enabled: false },
          }),
          bootShell(),
          inlineEntryCss(),
          precompress(),
        ],
        build: {
          target: 'es2022',
          sourcemap: false,
          rollupOptions: {
            input: { main: 'index.html', iframe: 'iframe.html' },
            output: {
              codeSplitting: {
                // The widget's share first: a module both need goes there, not into `kit`.
                groups: [
                  { name: widgetKit, debugName: 'widget-kit', priority: 2 },
                  { name: 'kit', test: /\/src\/(ui|api|shell)\//, priority: 1 },
                  { name: startScreen, debugName: 'start screen', priority: 1 },
                ],
              },
            },
          },
        },
        worker: {
          format: 'es',
          plugins: () => [noEntryImports(), startRounds(2), noBackOffice()],
          rollupOptions: {
            // What the entry and a lazy chunk both use (the device store's schema reads the contract)
            // goes to a chunk of its own. By default it stays in the entry, "already loaded" when the lazy
            // chunk comes, which then imports the entry back (`noEntryImports`).
            experimental: { chunkOptimization: { avoidRedundantChunkLoads: false } },
            output: {
              codeSplitting: {
                groups: [
                  // The device store (Dexie and the store's own modules), which the worker loads on its
                  // first use of it (workers/device.ts): one chunk, without its dependencies — what it
                  // shares with the entry stays in the shared chunk, which it imports. So that chunk
                  // comes before every user of Rolldown's runtime helpers (the contract's TypeBox
                  // namespace, Dexie's CommonJS wrapper) and Rolldown writes them into it: with Dexie a
                  // chunk of its own, no chunk but the entry came before both, so the helpers were a
                  // third file, a third round of requests before the worker ran (`startRounds`).
                  {
                    name: 'store',
                    test: /[\\/]node_modules[\\/]dexie[\\/]|[\\/]workers[\\/]store[\\/](index|schema)\.ts$/,
                    includeDependenciesRecursively: false,
                  },
                ],
              },
            },
          },
        },
        server: { proxy: { '/api': 'http://localhost:8080' } },
        test: {
          projects: [
            { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
            {
              test: {
                name: 'dom',
                include: ['tests/dom/**/*.test.{ts,tsx}'],
                environment: 'happy-dom',
                setupFiles: ['tests/support/dom-setup.ts'],
              },
            },
            {
              test: {
                name: 'server',
                include: ['tests/server/**/*.test.ts'],
                environment: 'node',
                testTimeout: 30_000,
                hookTimeout: 60_000,
                // The migrated schema every test server copies, made once per run.
                globalSetup: ['tests/support/schema-template.ts'],
                // One module graph for all the server suites: a suite's state is its own servers on its
                // own databases (no mocks, no module-level state but caches keyed by server), and
                // importing the server again for each of 50 files was half of their time (237 → 127 s).
                isolate: false,
              },
            },
          ],
        },
      },
);
