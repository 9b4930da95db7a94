import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { clockStartEnv } from '../clock-start';

/**
 * The real built server (`.build/server.mjs`, what `npm start` runs) on a temporary SQLite database,
 * serving a copy of dist/ whose two pages carry an error capture (`CAPTURE`): WebKitWebDriver
 * cannot read the console, so the page keeps what went wrong where the journey can read it. The
 * server's own request log (LOG_REQUESTS=1) is the count of what reached it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Where the page keeps its errors (sessionStorage: it survives reloads and navigations). */
export const ERRORS_KEY = 'e2e.errors';

/**
 * The first script of each page (a file: iframe.html's policy allows no inline script): uncaught
 * errors and rejections and console.error, kept in sessionStorage, before any of the app's run.
 */
const CAPTURE = `(function(){var k=${JSON.stringify(ERRORS_KEY)};function keep(m){try{var l=JSON.parse(sessionStorage.getItem(k)||'[]');l.push(String(m).slice(0,500));sessionStorage.setItem(k,JSON.stringify(l))}catch(e){}}
addEventListener('error',function(e){keep('error: '+(e.error&&e.error.stack||e.message))});
addEventListener('unhandledrejection',function(e){var r=e.reason;keep('rejection: '+(r&&r.stack||r))});
var ce=console.error;console.error=function(){keep('console.error: '+[].map.call(arguments,String).join(' '));return ce.apply(console,arguments)};})();`;

export interface Request {
  at: number;
  method: string;
  url: string;
  status?: number;
}

export interface TestServer {
  url: string;
  port: number;
  requests: Request[];
  /** Stops the process where it stands (SIGSTOP): connections open, nothing answered. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** dist/ copied to `dir`, with the capture as the first script of index.html and iframe.html. */
function distWithCapture(dir: string): string {
  const dist = path.join(dir, 'dist');
  fs.cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'e2e-capture.js'), CAPTURE);
  for (const page of ['index.html', 'iframe.html']) {
    const file = path.join(dist, page);
    const html = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, html.replace('<head>', '<head><script src="/e2e-capture.js"></script>'));
    // The precompressed copies would be served instead of the page with the capture.
    for (const ext of ['.br', '.gz']) fs.rmSync(file + ext, { force: true });
  }
  return dist;
}

export async function startServer(options: {
  port: number;
  dir: string;
  env?: Record<string, string>;
  dist?: string;
}): Promise<TestServer> {
  const { port, dir } = options;
  const dist = options.dist ?? distWithCapture(dir);
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, '.build/server.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'engines.db')}`,
      UPLOADS_DIR: path.join(dir, 'uploads'),
      DIST_DIR: dist,
      MARKET_SEED: '424242',
      SCRYPT_N: '16384',
      LOG_LEVEL: 'info',
      LOG_REQUESTS: '1',
      SANDBOX_SETTLE_MS: '3000',
      // Inside an NSE session at any real hour (a market buy on a closed market is an AMO).
      ...clockStartEnv(),
      ...options.env,
    },
  });
  const requests: Request[] = [];
  const byId = new Map<string, Request>();
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as {
      time: number;
      reqId?: string;
      req?: { method: string; url: string };
      res?: { statusCode: number };
    };
    if (entry.req && entry.reqId) {
      const r: Request = { at: entry.time, method: entry.req.method, url: entry.req.url };
      requests.push(r);
      byId.set(entry.reqId, r);
    } else if (entry.res && entry.reqId) {
      const r = byId.get(entry.reqId);
      if (r) r.status = entry.res.statusCode;
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the server on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    requests,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
