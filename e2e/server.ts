import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
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

/**
 * Whether `port` on 127.0.0.1 is free: a listener of our own on it is refused (EADDRINUSE) when
 * anything listens there already, on 127.0.0.1 or on every address.
 */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(false) : reject(err),
    );
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 free now, chosen by the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `port` if it is free, else (`taken: 'another'`) a free port the system chooses, or (`'refuse'`)
 * an error saying who to blame. A journey must never share its port with a stranger: the stranger
 * (a server an earlier run left behind) would answer the journey's /healthz and its requests, or
 * its requests would count as the journey's.
 */
export async function portFor(port: number, taken: 'another' | 'refuse'): Promise<number> {
  if (await portFree(port)) return port;
  if (taken === 'refuse')
    throw new Error(
      `port ${port} on 127.0.0.1 is already taken by another process (a server an earlier run left ` +
        `behind?): stop it (\`ss -ltnp 'sport = :${port}'\` names it) or set another E2E_PORT`,
    );
  const other = await freePort();
  console.error(`e2e: port ${port} is taken by another process; this server takes ${other} instead`);
  return other;
}

/**
 * Whether process `pid` holds the socket listening on `port` (Linux: /proc/net/tcp's listening
 * sockets against the process's open files), so an answer on the port is known to be its own.
 */
function listensOn(pid: number, port: number): boolean {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local address, state (0A: listening), inode
      if (f[1]?.endsWith(hexPort) && f[3] === '0A' && f[9]) inodes.add(f[9]);
    }
  }
  let fds: string[] = [];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false;
    }
  });
}

export async function startBuiltServer(options: {
  /** The port asked for; see `portTaken` for when another process holds it. */
  port: number;
  /**
   * When `port` is taken already: take a free one instead (`another`, the default: callers use
   * the answer's `url` and `port`), or fail saying so (`refuse`: a restart that must keep its origin).
   */
  portTaken?: 'another' | 'refuse';
  dir: string;
  /** The built app it serves (default: dist/). */
  dist?: string;
  env?: Record<string, string>;
  /** Its standard output (default: ignored); standard error goes to the runner's. */
  stdout?: 'pipe' | 'ignore';
}): Promise<ServerProcess> {
  const { dir } = options;
  const port = await portFor(options.port, options.portTaken ?? 'another');
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
  // An answer from another process that took the port after it was found free: this server then
  // fails to listen and exits, and says why.
  let stranger = false;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `the server on ${port} exited (${child.exitCode})${stranger ? `: another process answers on ${port}` : ''}`,
      );
    let answered = false;
    try {
      answered = (await fetch(`${url}/healthz`)).ok;
    } catch {}
    // Someone answered: it must be this server.
    if (answered && (process.platform !== 'linux' || listensOn(child.pid!, port))) break;
    if (answered) stranger = true;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        stranger
          ? `port ${port} answers /healthz, but not from the server started on it: another process holds it`
          : `the server on ${port} did not answer /healthz within 180 s`,
      );
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
