import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { LANGUAGES } from './src/i18n/languages';
import { type BootBuild, type BootTexts, bootScript } from './src/shell/boot';
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
 * Writes the static shell's script into index.html (src/shell/boot.ts), with the login screen's
 * title and subtitle in every language read from locales/ (the words the screen itself shows) and
 * the built worker's file.
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
        const bundle = ctx.bundle ?? {};
        const worker = Object.keys(bundle).find((f) => /(^|\/)sync\.worker-[\w-]+\.js$/.test(f));
        const build: BootBuild = {
          texts,
          worker: worker ? `/${worker}` : null,
        };
        return html.replace('<script data-boot></script>', `<script>${bootScript(build)}</script>`);
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
/** The modules the widget's entry imports, directly or not (static imports), per chunking pass. */
const widgetModules = new WeakMap<ChunkingContext, Set<string>>();

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
  let widget = widgetModules.get(ctx);
  if (!widget) {
    widget = new Set();
    const visit = (m: string) => {
      if (widget!.has(m)) return;
      widget!.add(m);
      for (const next of ctx.getModuleInfo(m)?.importedIds ?? []) visit(next);
    };
    visit(WIDGET_ENTRY);
    // The app's own modules only (packages stay where sharing puts them), not the entry itself.
    for (const m of widget) if (!m.startsWith(SRC) || m === WIDGET_ENTRY) widget.delete(m);
    widgetModules.set(ctx, widget);
  }
  return widget.has(id) ? 'widget-kit' : null;
}

/**
 * The PWA build (index.html + the embeddable iframe.html widget), its service worker, and the
 * Vitest projects: unit (pure logic, node), dom (components and the device store, happy-dom),
 * server (the API against real SQLite and PostgreSQL).
 */
export default defineConfig({
  plugins: [
    react(),
    reactRouterProduction(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      // public/manifest.webmanifest is the manifest (shortcuts, screenshots, maskable icon).
      manifest: false,
      includeAssets: [],
      workbox: {
        // The shell: both pages, hashed assets (locales are chunks), icons, the manifest.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        globIgnores: ['**/screenshots/**', 'icons/shortcut-*.png'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [new RegExp(`^${API_BASE}/`), /^\/healthz/, /^\/iframe\.html/],
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
            { name: widgetKit, priority: 2 },
            { name: 'kit', test: /\/src\/(ui|api|shell)\//, priority: 1 },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
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
        },
      },
    ],
  },
});
