import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { startBuiltServer } from '../server';

/**
 * The real built server (`.build/server.mjs`, what `npm start` runs) on a temporary SQLite database,
 * serving a copy of dist/ whose two pages carry an error capture (`CAPTURE`): WebKitWebDriver
 * cannot read the console, so the page keeps what went wrong where the journey can read it. The
 * server's own request log (LOG_REQUESTS=1) is the count of what reached it, each request with the
 * tag of the session it came from: only the journey's own session's count (a browser an earlier,
 * killed run left polling this port must not).
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
  /** The tag of the session token it carried (the server's log: a hash's first digits, never the token). */
  session?: string;
  /** The connection it came on (the client's port), which ties a sign-in's POST to the session it made. */
  conn?: number;
}

export interface TestServer {
  url: string;
  port: number;
  requests: Request[];
  /**
   * Resolves once every request that reached the server before this call is in `requests`: the
   * log is read from the server's output after the answer left, so a page can be on its next screen
   * before the line that counts its request arrives (under load, often). A marked /healthz request
   * is sent and waited for; the log is in order, so everything before it has been read.
   */
  logged(): Promise<void>;
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
  // Precached with the shell, as the app's own scripts are: a page loaded while the server is
  // stopped (the journey's offline walk) must not wait on it.
  const sw = path.join(dist, 'sw.js');
  const revision = crypto.createHash('md5').update(CAPTURE).digest('hex');
  const manifest = fs.readFileSync(sw, 'utf8');
  if (!manifest.includes('precacheAndRoute(['))
    throw new Error('dist/sw.js: no precache manifest to add the capture to');
  fs.writeFileSync(
    sw,
    manifest.replace(
      'precacheAndRoute([',
      `precacheAndRoute([{url:"e2e-capture.js",revision:"${revision}"},`,
    ),
  );
  for (const ext of ['.br', '.gz']) fs.rmSync(sw + ext, { force: true });
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
  const server = await startBuiltServer({
    port: options.port,
    dir: options.dir,
    dist: options.dist ?? distWithCapture(options.dir),
    env: { LOG_LEVEL: 'info', LOG_REQUESTS: '1', ...options.env },
    stdout: 'pipe',
  });
  const requests: Request[] = [];
  const byId = new Map<string, Request>();
  readline.createInterface({ input: server.child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as {
      time: number;
      reqId?: string;
      req?: { method: string; url: string; session?: string; remotePort?: number };
      res?: { statusCode: number };
    };
    if (entry.req && entry.reqId) {
      const r: Request = {
        at: entry.time,
        method: entry.req.method,
        url: entry.req.url,
        session: entry.req.session,
        conn: entry.req.remotePort,
      };
      requests.push(r);
      byId.set(entry.reqId, r);
    } else if (entry.res && entry.reqId) {
      const r = byId.get(entry.reqId);
      if (r) r.status = entry.res.statusCode;
    }
  });
  let marks = 0;
  const logged = async () => {
    const mark = `/healthz?logged=${++marks}`;
    await fetch(`${server.url}${mark}`);
    const deadline = Date.now() + 30_000;
    while (!requests.some((r) => r.url === mark)) {
      if (Date.now() > deadline) throw new Error(`the server's log never showed ${mark}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    url: server.url,
    port: server.port,
    requests,
    logged,
    pause: server.pause,
    resume: server.resume,
    stop: server.stop,
  };
}
