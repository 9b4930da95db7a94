import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { contract, type EndpointName } from '#shared/contract/index';
import type { Answer } from './server';

/**
 * Real server processes for the suites that need more than `inject` (several instances on one
 * database, kill -9): `server/main.ts` from source, called over HTTP by contract name.
 */

const root = path.resolve(import.meta.dirname, '../..');

export interface Instance {
  name: string;
  base: string;
  child: ChildProcess;
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

export function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let out = '';
    let ready = false;
    const onData = (d: Buffer) => {
      // Kept until ready (for the error below); later output is only drained.
      if (ready) return;
      out += d.toString();
      if (/Bourse is running/.test(out)) {
        ready = true;
        resolve({ name, base: `http://127.0.0.1:${port}`, child });
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
  });
  return { status: res.status, body: (await res.json()) as Answer, headers: res.headers };
}
