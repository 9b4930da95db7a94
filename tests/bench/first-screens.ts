import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BrowserContext, Page } from 'playwright';

/**
 * What a first screen downloads before it shows (bench:ui, bench:budget): every script file the page
 * and the sync worker ask for until the screen is ready, sized as served (the build's .gz and .br
 * beside each file), the main thread's apart from the worker's; and, where the build wrote source
 * maps, how much of the main thread's share is the app's own code (src/, workers/) rather than
 * packages.
 */

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export { kb };

/** Built files and every chunk they import (`dynamic`: by import() too), as /assets/ paths. */
function reachable(assets: string, files: string[], dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const pattern = dynamic
    ? /(?:from\s*|import\s*\(?\s*)["'`]\.\/([\w.-]+\.js)["'`]/g
    : /(?:from\s*|import\s*)["'`]\.\/([\w.-]+\.js)["'`]/g;
  const visit = (file: string) => {
    if (seen.has(`/assets/${file}`)) return;
    seen.add(`/assets/${file}`);
    for (const m of fs.readFileSync(path.join(assets, file), 'utf8').matchAll(pattern)) visit(m[1]!);
  };
  for (const f of files) visit(f);
  return seen;
}

/**
 * Rounds of requests before a built file can run: the file, then what it imports statically, one
 * round per level of the longest chain (a module's static imports are asked for only once it has
 * arrived and been parsed).
 */
function rounds(assets: string, file: string, seen: ReadonlySet<string> = new Set()): number {
  if (seen.has(file)) return 0;
  const next = new Set(seen).add(file);
  const text = fs.readFileSync(path.join(assets, file), 'utf8');
  const imports = [...text.matchAll(/(?:from\s*|import\s*)["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1]!);
  return 1 + Math.max(0, ...imports.map((f) => rounds(assets, f, next)));
}

const WORKER_ENTRY = /^sync\.worker-[\w-]+\.js$/;

/** The sync worker's files: its script and every chunk it loads. */
const workerGraph = (assets: string) =>
  reachable(
    assets,
    fs.readdirSync(assets).filter((f) => WORKER_ENTRY.test(f)),
    true,
  );

/** What a page's own scripts import from the start (its entry and what that imports statically). */
function pageGraph(dist: string, html: string): Set<string> {
  const page = fs.readFileSync(path.join(dist, html), 'utf8');
  const files = [...page.matchAll(/(?:src|href)="\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
  return reachable(path.join(dist, 'assets'), files, false);
}

export interface InitialJs {
  /** The main thread's script files (/assets/… paths). */
  files: string[];
  gzip: number;
  brotli: number;
  /** The app's own code among them, gzip (null without source maps). */
  ownGzip: number | null;
  workerFiles: number;
  workerGzip: number;
  /** Rounds of requests before the worker's script runs (0: the worker did not start). */
  workerRounds: number;
}

/**
 * Opens `url` in a new page of `context`, waits for `ready`, and sizes every script asked for by
 * then. The worker's files are off the main thread; one the page's own scripts import too (the
 * shared runtime: each realm loads its own copy) counts on both sides.
 */
export async function initialJs(
  dist: string,
  context: BrowserContext,
  url: string,
  ready: (p: Page) => Promise<void>,
): Promise<InitialJs> {
  const assets = path.join(dist, 'assets');
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith('.js')) scripts.add(u.pathname);
  });
  await page.goto(url);
  await ready(page);
  // What the route needed to show its content; later loads (the service worker's helper) do not count.
  const asked = new Set(scripts);
  await page.close();
  const worker = workerGraph(assets);
  const own = pageGraph(dist, new URL(url).pathname === '/iframe.html' ? 'iframe.html' : 'index.html');
  const needed = [...asked].filter((p) => !worker.has(p) || own.has(p));
  const workerNeeded = [...asked].filter((p) => worker.has(p));
  const size = (p: string, ext: 'gz' | 'br') => {
    const file = path.join(dist, p);
    return fs.statSync(fs.existsSync(`${file}.${ext}`) ? `${file}.${ext}` : file).size;
  };
  const sum = (files: string[], ext: 'gz' | 'br') => files.reduce((n, p) => n + size(p, ext), 0);
  const workerEntry = fs.readdirSync(assets).find((f) => WORKER_ENTRY.test(f));
  return {
    files: needed,
    gzip: sum(needed, 'gz'),
    brotli: sum(needed, 'br'),
    ownGzip: ownCode(dist, needed),
    workerFiles: workerNeeded.length,
    workerGzip: sum(workerNeeded, 'gz'),
    workerRounds: workerNeeded.length > 0 && workerEntry ? rounds(assets, workerEntry) : 0,
  };
}

/** Base64 VLQ digits of source maps. */
const BASE64 = new Map(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);

/**
 * Each generated line's segments of a source map, as [generated column, source index or -1]
 * (the source-map v3 `mappings` field: lines by `;`, segments by `,`, fields base64 VLQ).
 */
function segments(mappings: string): Array<Array<[number, number]>> {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter(Boolean)
      .map((segment) => {
        const fields: number[] = [];
        let value = 0;
        let shift = 0;
        for (const c of segment) {
          const digit = BASE64.get(c)!;
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += fields[0]!;
        if (fields.length > 1) source += fields[1]!;
        return [column, fields.length > 1 ? source : -1] as [number, number];
      });
  });
}

/** A source of the app's own (not a package's, not the bundler's helpers). */
const isOwn = (source: string) => !source.includes('node_modules/') && /(^|\/)(src|workers)\//.test(source);

/**
 * The app's own code among `files`, gzip: each file's bytes that its source map traces to the
 * app's sources, compressed together as the build compresses each file (gzip level 9). A file
 * without a map is the bundler's (its runtime helpers); null when none has one (a build without
 * `--sourcemap`).
 */
function ownCode(dist: string, files: string[]): number | null {
  const parts: string[] = [];
  let maps = 0;
  for (const p of files) {
    const file = path.join(dist, p);
    if (!fs.existsSync(`${file}.map`)) continue;
    maps++;
    const map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
    const own = map.sources.map(isOwn);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    segments(map.mappings).forEach((segs, i) => {
      const text = lines[i] ?? '';
      segs.forEach(([column, source], k) => {
        if (source >= 0 && own[source]) parts.push(text.slice(column, segs[k + 1]?.[0] ?? text.length));
      });
    });
  }
  return maps ? zlib.gzipSync(parts.join(''), { level: 9 }).length : null;
}
