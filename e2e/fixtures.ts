import fs from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { opsOn, portFor, type ServerProcess, startBuiltServer } from './server';

export { expect } from '@playwright/test';

/**
 * Every journey's `test`: the real built server of its Playwright worker — its own database, clock
 * and copy of dist/ — as `baseURL`, so journeys running at once share nothing. A spec that moves
 * the server's clock (the operator's `clock:advance`) says so with `test.use({ ownServer: '<its
 * name>' })`: its tests then run in a worker (and on a server) of their own.
 *
 * Ports: the worker's server at E2E_PORT + its parallel index (0–9, so at most 10 workers at once),
 * and the origin of a hybrid shell its server accepts (CORS_ORIGINS) at E2E_PORT + 10 + that index;
 * a port another process holds already is never shared: a free one the system chooses is taken
 * instead (server.ts `portFor`).
 */
export interface WorkerServer extends ServerProcess {
  /** Where its database, uploads and copy of dist/ are. */
  dir: string;
  /** The built app it serves, a copy of dist/ (a journey may change it: app-core's new build). */
  dist: string;
  /** The one origin besides its own it accepts calls from (CORS_ORIGINS): a hybrid shell's. */
  shellOrigin: string;
  /** The operator's console on its database (`npm run ops -- …`): what it printed. */
  ops(...args: string[]): string;
}

/** Debian's Chromium as the journeys launch it (a spec launching its own passes the same). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317);
const ROOT = path.resolve(import.meta.dirname, '..');
export const MAX_WORKERS = 10;

let current: WorkerServer | null = null;

/** The server of this worker (support.ts's helpers act on it). */
export function workerServer(): WorkerServer {
  if (!current) throw new Error("no e2e server in this worker: import { test } from './fixtures'");
  return current;
}

export const test = base.extend<
  object,
  { server: WorkerServer; ownServer: string; serverEnv: Record<string, string> }
>({
  ownServer: ['', { scope: 'worker', option: true }],
  /** Settings of an own server's (with `ownServer`: a shared server keeps the e2e's). */
  serverEnv: [{}, { scope: 'worker', option: true }],
  server: [
    async ({ ownServer, serverEnv }, use, workerInfo) => {
      const index = workerInfo.parallelIndex;
      if (index >= MAX_WORKERS) throw new Error(`at most ${MAX_WORKERS} e2e workers (ports)`);
      const dir = path.join(
        process.env.E2E_DIR ?? fs.mkdtempSync('/tmp/bourse-e2e-'),
        `worker-${workerInfo.workerIndex}${ownServer ? `-${ownServer}` : ''}`,
      );
      const dist = path.join(dir, 'dist');
      fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
      // Each port, if another process holds it already, gives way to one the system chooses.
      const shellOrigin = `http://127.0.0.1:${await portFor(E2E_PORT + 10 + index, 'another')}`;
      const started = await startBuiltServer({
        port: E2E_PORT + index,
        dir,
        dist,
        // PUSH_LOOPBACK: a push subscription may name a push service of the journey's own on
        // 127.0.0.1 (push.spec: headless Chromium has none); production refuses it.
        env: { CORS_ORIGINS: shellOrigin, PUSH_LOOPBACK: '1', ...(ownServer ? serverEnv : {}) },
      });
      current = {
        ...started,
        dir,
        dist,
        shellOrigin,
        ops: (...args) => opsOn(started.databaseUrl, args),
      };
      try {
        await use(current);
      } finally {
        current = null;
        await started.stop();
        fs.rmSync(dist, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});
