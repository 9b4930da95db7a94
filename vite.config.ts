import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { backOfficeBuild, OPS_MODE } from './src/build/back-office';
import { noBackOffice, noEntryImports, startRounds } from './src/build/checks';
import { appKit, moreKit, screenKit, startScreen, widgetKit } from './src/build/chunks';
import { precompress } from './src/build/compression';
import { bootShell, inlineEntryCss } from './src/build/first-paint';
import { reactRouterProduction } from './src/build/react-router';
import { runtimeCaching } from './workers/sw-cache';

const API_BASE = (process.env.VITE_API_BASE ?? '/api').replace(/\/$/, '');

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
              // A push shows as a notification (public/sw-push.js); a tap on one opens its screen
              // (public/sw-notify.js).
              importScripts: ['/sw-notify.js', '/sw-push.js'],
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
                  // Then the kit's chunks, each before the next takes in what its modules import.
                  { name: widgetKit, debugName: 'widget-kit', priority: 5 },
                  { name: appKit, debugName: 'kit', priority: 4 },
                  { name: screenKit, debugName: 'screen-kit', priority: 3 },
                  { name: moreKit, debugName: 'more-kit', priority: 2 },
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
            {
              test: {
                name: 'unit',
                include: ['tests/unit/**/*.test.ts'],
                environment: 'node',
                // A hang is still caught; Vitest's 5 s was a loaded machine's normal (load 30: 5.0 s).
                testTimeout: 30_000,
                // Property tests' seed: pinned under CI, printed and replayable (tests/support/seed.ts).
                setupFiles: ['tests/support/fast-check-setup.ts'],
                // Pure functions: one module graph for the 48 files instead of one each (the project's
                // CPU 26.5 → 11.9 s). A file that fakes timers or sets TZ puts them back itself.
                isolate: false,
              },
            },
            {
              test: {
                name: 'dom',
                include: ['tests/dom/**/*.test.{ts,tsx}'],
                environment: 'happy-dom',
                // Rendering a screen took over 5 s (Vitest's default) at load 30: a hang is still caught.
                testTimeout: 30_000,
                setupFiles: ['tests/support/dom-setup.ts'],
              },
            },
            {
              test: {
                name: 'server',
                include: ['tests/server/**/*.test.ts'],
                environment: 'node',
                // A test that walks every back-office call by every role makes hundreds of requests on
                // PostgreSQL: past 30 s at load 18, and a timed-out test kept running into the next one.
                testTimeout: 90_000,
                hookTimeout: 60_000,
                // The migrated schema every test server copies, and the server and console that
                // the process suites start, bundled: each made once per run.
                globalSetup: ['tests/support/schema-template.ts', 'tests/support/bundle.ts'],
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
