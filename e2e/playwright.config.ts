import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, MAX_WORKERS } from './fixtures';

/**
 * End-to-end: the real built app (dist/) served by the real built server, one per worker on a
 * SQLite database of its own (fixtures.ts), driven in Debian's Chromium at 390×844 with touch.
 * `npm test` builds first.
 */
process.env.E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(process.env.E2E_DIR, 'results'),
  /*
   * Every journey is independent (its own users, its worker's own server and clock; a spec that
   * moves the clock has a worker and server of its own), so any two run at once, tests of one file
   * too unless the file runs in order (`test.describe.configure({ mode: 'serial' })`). Three
   * workers on the 2-core machine: a journey spends much of its time waiting on polls and the
   * sandbox's settlement, not on the CPU. `--shard i/n` splits the run.
   */
  fullyParallel: true,
  workers: Math.min(MAX_WORKERS, Number(process.env.E2E_WORKERS ?? 3)),
  retries: 0,
  // A journey's budget: a long one (recharge: two forms, records, bills, axe) took over 60 s on
  // the 2-core machine at load 14, and 2.3 minutes at load 30; a hang is still caught, at four.
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: process.env.PW_JSON_OUTPUT
    ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
    : [['list']],
  use: {
    viewport: { width: 390, height: 844 },
    // A phone's 2× screen only where a person looks at the pixels (E2E_SCREENS): software raster of
    // four times the pixels made the journeys CPU-bound on a 2-core machine (npm test took 20 min).
    deviceScaleFactor: process.env.E2E_SCREENS ? 2 : 1,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    // No service worker unless a journey asks for one (`test.use({ serviceWorkers: 'allow' })`: the
    // offline, install, update, push and hybrid-shell journeys). Each context that allows one installs
    // it and precaches the whole shell (~195 files fetched and stored), about a second of the 2-core
    // machine's CPU per journey, spent for nothing by a journey that never uses it: layout's five
    // journeys took 62 → 56 CPU-s with it blocked. The app without one is a first visit or a
    // hybrid shell, as it ships.
    serviceWorkers: 'block',
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    // What a failed journey did, step by step, with its timings and requests (npx playwright
    // show-trace <results>/…/trace.zip). Without screenshots or DOM snapshots: recording them at
    // every step of every journey cost the 2-core machine CPU; the page at failure is in the
    // report's error context (its accessibility tree) and screenshot.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: false },
    screenshot: 'only-on-failure',
  },
});
