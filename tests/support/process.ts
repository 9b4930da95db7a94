import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { contract, type EndpointName } from '#shared/contract/index';
import type { Bundle } from './bundle';
import { type Answer, TEST_EPOCH } from './server';

/** The real-process servers' CLOCK_START: TEST_EPOCH as read when this module loaded. */
const SHARED_CLOCK = `${TEST_EPOCH}@${Date.now()}`;

/**
 * Real server processes for the suites that need more than `inject` (several instances on one
 * database, kill -9): `server/main.ts` as the run bundled it (support/bundle.ts), called over HTTP
 * by contract name.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** The run's bundle (support/bundle.ts); none outside Vitest (the benches). */
function bundle(): Bundle | undefined {
  try {
    return inject('bundle');
  } catch {
    return undefined;
  }
}

/**
 * Node's arguments that run our server (`server`) or the operator's console (`ops`, what `npm run
 * ops --` runs): the run's bundle, or the source through tsx outside Vitest.
 */
export function program(name: 'server' | 'ops'): string[] {
  const built = bundle()?.[name];
  if (built) return [built];
  return ['--import', 'tsx', name === 'server' ? 'server/main.ts' : 'server/ops/cli.ts'];
}

export interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
  /** Everything it printed, when started with `keepLog` (else only up to ready). */
  log(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Every server started here and not yet exited: a failed start or test must not leave one running. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startInstance(
  name: string,
  port: number,
  env: Record<string, string>,
  options: { keepLog?: boolean } = {},
): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, program('server'), {
      cwd: root,
      // The clock starts at TEST_EPOCH, inside an NSE session whatever the real hour (a market buy on
      // a closed market is an AMO), as the in-process servers' do; a test may set its own.
      // Anchored to one real instant, so instances started apart keep one clock (cluster.test).
      env: {
        ...process.env,
        CLOCK_START: SHARED_CLOCK,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let out = '';
    let ready = false;
    const onData = (d: Buffer) => {
      // Kept until ready (for the error below); later output is only drained, unless asked for.
      if (ready && !options.keepLog) return;
      out += d.toString();
      if (!ready && /Bourse is running/.test(out)) {
        ready = true;
        resolve({ name, base: `http://127.0.0.1:${port}`, child, log: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code, signal) => reject(new Error(`${name} exited (${code ?? signal}):\n${out}`)));
  });
}

/** Stops every server still running (a test's afterAll, whatever happened before). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child)));
}

export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** One contract call over HTTP to an instance. */
export async function call(
  at: Instance,
  name: EndpointName,
  options: {
    body?: unknown;
    query?: Record<string, string | number>;
    token?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<{ status: number; body: Answer; headers: Headers }> {
  const { method, path: route } = contract[name];
  const url = new URL(`${at.base}/api${route}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.token = options.token;
  if (method === 'POST') headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    signal: options.signal,
  });
  return { status: res.status, body: (await res.json()) as Answer, headers: res.headers };
}

/** A buy the server acknowledged: the order's id, the caller and the Idempotency-Key it went with. */
export interface AckedBuy {
  id: number;
  token: string;
  key: string;
  at: number;
}

/**
 * A stream of stock buys from `connections` callers at once, spread over `tokens` and `instances`,
 * until `stop()`: what the failure and backup drills run under. An order may fill or rest (a
 * closed market, a price that moved): either is acknowledged. `answers` counts every answer by
 * status (0: no answer), `slowest` is the longest any request waited.
 */
export function buyStream(options: {
  instances: () => Instance[];
  tokens: string[];
  symbol: string;
  price: number;
  connections: number;
  /** Per request; a request past it counts as status 0. */
  timeoutMs?: number;
}) {
  const acked: AckedBuy[] = [];
  const answers = new Map<number, number>();
  const refusals = new Map<string, number>();
  let slowest = 0;
  let stopped = false;
  const one = async (w: number, i: number) => {
    const list = options.instances();
    const at = list[(w + i) % list.length]!;
    const token = options.tokens[(w + i) % options.tokens.length]!;
    const key = `drill-${w}-${i}-${Math.random().toString(36).slice(2, 10)}`;
    const started = performance.now();
    let status = 0;
    try {
      const res = await call(at, 'dealBuy', {
        token,
        body: { tag: options.symbol, count: 1, price: options.price, mold: 'stock' },
        headers: { 'idempotency-key': key },
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      status = res.status;
      if (res.body.msg === 'ok') acked.push({ id: Number(res.body.data.id), token, key, at: Date.now() });
      else
        refusals.set(
          `${res.status} ${res.body.data}`,
          (refusals.get(`${res.status} ${res.body.data}`) ?? 0) + 1,
        );
    } catch {
      // No answer (connection refused or reset, timed out): nothing was promised.
    }
    slowest = Math.max(slowest, performance.now() - started);
    answers.set(status, (answers.get(status) ?? 0) + 1);
    return status;
  };
  const workers = Array.from({ length: options.connections }, async (_, w) => {
    for (let i = 0; !stopped; i++) {
      const status = await one(w, i);
      // A refused connection or a 503 answers at once: do not spin while a server is down.
      if (!stopped && (status === 0 || status >= 500)) await new Promise((r) => setTimeout(r, 20));
    }
  });
  return {
    acked,
    answers,
    refusals,
    get slowest() {
      return slowest;
    },
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(workers);
    },
  };
}
