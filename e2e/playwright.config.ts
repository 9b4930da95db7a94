import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { clockStartEnv } from './clock-start';

/**
 * End-to-end: the real built app (dist/) served by the real server on a temporary SQLite database,
 * driven in Debian's Chromium at 390×844 with touch. `npm test` builds first.
 */
process.env.E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));
const PORT = Number(process.env.E2E_PORT ?? 4317);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  /*
   * invest.spec.ts moves the server's clock forward 8 days (fund maturity, IPO listing); every other
   * journey must run before that, so it is its own project that depends on the rest.
   */
  projects: [
    { name: 'app', testIgnore: ['**/invest.spec.ts', '**/watch-alerts.spec.ts', '**/portfolio.spec.ts'] },
    { name: 'clock', testMatch: '**/invest.spec.ts', dependencies: ['app'] },
    // watch-alerts.spec.ts moves the clock further (a day at a time): after invest.spec.ts, not beside
    // it (two workers ran them at once, and a day's move closed the market under a block buy).
    { name: 'alerts', testMatch: '**/watch-alerts.spec.ts', dependencies: ['clock'] },
    // portfolio.spec.ts moves the clock 3 days so prices move at any hour: after the alerts project.
    { name: 'portfolio', testMatch: '**/portfolio.spec.ts', dependencies: ['alerts'] },
  ],
  outputDir: path.join(process.env.E2E_DIR, 'results'),
  fullyParallel: false,
  /*
   * Files run two at a time (a file's journeys stay in order): a journey spends most of its time
   * waiting on polls and the sandbox's settlement, not on the CPU — the suite took 773 s at load 11
   * and about 660 s on a quiet machine with one worker. Journeys share the server but never a user.
   */
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // A journey's budget: a long one (recharge: two forms, records, bills, axe in both themes) took
  // over 60 s on the 2-core machine at load 14; a hang is still caught, at two minutes.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PW_JSON_OUTPUT
    ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
    : [['list']],
  use: {
    baseURL: BASE_URL,
    viewport: { width: 390, height: 844 },
    // A phone's 2× screen only where a person looks at the pixels (E2E_SCREENS): software raster of
    // four times the pixels made the journeys CPU-bound on a 2-core machine (npm test took 20 min).
    deviceScaleFactor: process.env.E2E_SCREENS ? 2 : 1,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    serviceWorkers: 'allow',
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(process.env.E2E_DIR, 'e2e.db')}`,
      UPLOADS_DIR: path.join(process.env.E2E_DIR, 'uploads'),
      MARKET_SEED: '424242',
      SCRYPT_N: '16384',
      LOG_LEVEL: 'warn',
      SANDBOX_SETTLE_MS: '3000',
      OPS_CLOCK: '1',
      // Inside an NSE session at any real hour (a market buy on a closed market is an AMO).
      ...clockStartEnv(),
      // Every journey registers its own users from this one address.
      REGISTER_LIMIT_ADDRESS: '100000',
      // hybrid-shell.spec.ts serves the app from this origin (a hybrid shell's) against this API.
      CORS_ORIGINS: `http://127.0.0.1:${PORT + 10}`,
    },
  },
});
