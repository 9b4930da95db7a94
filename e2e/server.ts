import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { clockStartEnv } from './clock-start';

/**
 * The real built server (`.build/server.mjs`, what `npm start` runs; `npm run build` makes it) on
 * a SQLite database of its own under `dir`, for the journeys: each Playwright worker starts one
 * (fixtures.ts), and so do the Firefox and WebKit journeys and the deploy journey. The environment
 * is the demo's with the e2e's settings; `env` adds to it or overrides it.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  url: string;
  port: number;
  /** `DATABASE_URL` of its database (the operator's console works on the same one). */
  databaseUrl: string;
  child: ChildProcess;
  /** Stops the process where it stands (SIGSTOP): connections open, nothing answered. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** The e2e servers' settings, the same for every journey's server. */
export function e2eEnv(dir: string): Record<string, string> {
  return {
    DATABASE_URL: `sqlite:${path.join(dir, 'e2e.db')}`,
    UPLOADS_DIR: path.join(dir, 'uploads'),
    MARKET_SEED: '424242',
    // scrypt's lowest cost, as the server suites': the journeys test the app, not the hash's cost
    // (16384 cost 89 ms of a core a sign-up, 1024 cost 10).
    SCRYPT_N: '1024',
    LOG_LEVEL: 'warn',
    SANDBOX_SETTLE_MS: '3000',
    // The operator's clock (`ops clock:advance`) moves this server's clock.
    OPS_CLOCK: '1',
    // Inside an NSE session at any real hour (a market buy on a closed market is an AMO).
    ...clockStartEnv(),
    // Every journey registers its own users from this one address.
    REGISTER_LIMIT_ADDRESS: '100000',
  };
}

export async function startBuiltServer(options: {
  port: number;
  dir: string;
  /** The built app it serves (default: dist/). */
  dist?: string;
  env?: Record<string, string>;
  /** Its standard output (default: ignored); standard error goes to the runner's. */
  stdout?: 'pipe' | 'ignore';
}): Promise<ServerProcess> {
  const { port, dir } = options;
  const env: Record<string, string> = {
    ...e2eEnv(dir),
    ...(options.dist ? { DIST_DIR: options.dist } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, [path.join(ROOT, '.build/server.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Migrating and seeding take about 3 s of a core; a machine loaded 18 deep gave it a twentieth
  // of one (87 s to the first answer).
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server on ${port} did not answer /healthz within 180 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    databaseUrl: env.DATABASE_URL!,
    child,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The operator's console (`npm run ops -- …`, built once by `npm run build` as `.build/ops.mjs`) on
 * a server's database: what it printed. It throws with what it printed when it fails.
 */
export function opsOn(databaseUrl: string, args: string[], input?: string): string {
  return runBuilt('.build/ops.mjs', databaseUrl, args, input);
}

/** A script of ours run against a server's database: built (.mjs) by node, a .ts through tsx. */
export function runBuilt(script: string, databaseUrl: string, args: string[] = [], input?: string): string {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return execFileSync(process.execPath, [...loader, script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    input,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}
