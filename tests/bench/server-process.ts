import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The real server (from source) for the browser benchmarks: a temporary SQLite database under
 * `dir`, the simulator on the e2e seed, serving `distDir` (default dist/). Resolves when /healthz
 * answers; the returned function stops it.
 */
export async function startBenchServer({
  port,
  dir,
  distDir,
}: {
  port: number;
  dir: string;
  distDir?: string;
}): Promise<() => Promise<void>> {
  const base = `http://127.0.0.1:${port}`;
  const busy = await fetch(`${base}/healthz`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is in use: stop that server or set BENCH_PORT`);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`,
      UPLOADS_DIR: path.join(dir, 'uploads'),
      ...(distDir ? { DIST_DIR: distDir } : {}),
      SCRYPT_N: '16384',
      LOG_LEVEL: 'warn',
      MARKET_SEED: '424242',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Migrating and seeding takes a few seconds of a core, minutes on a machine loaded 15 times over.
  let up = false;
  for (let i = 0; i < 240 * 4 && !up && child.exitCode === null; i++) {
    up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 250));
  }
  if (!up) {
    child.kill('SIGTERM');
    throw new Error(`the bench server on port ${port} did not start (exit code ${child.exitCode})`);
  }
  return () =>
    new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}
