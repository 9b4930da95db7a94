import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './process';

/**
 * A PostgreSQL cluster of the test's own (the failure drills kill it): Debian's `initdb`,
 * `postgres` and `pg_ctl` from /usr/lib/postgresql/<newest>/bin on a spare port, in a temporary
 * folder. They refuse to run as root (DESIGN "Known traps"), so as root they run as the `postgres`
 * user. The postmaster is this process's child (through runuser), not daemonised by `pg_ctl start`:
 * killed, it must be reaped, or its zombie keeps `postmaster.pid` looking alive and the restart is
 * refused (a container's init may never reap it). `fsync=off`: the drills kill processes, not the
 * machine, and what a killed PostgreSQL wrote is in the page cache — crash recovery still replays
 * its WAL.
 */

/** The newest installed server binaries, or why there are none (the drill then skips, loudly). */
export function pgServerBin(): { dir: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    return { missing: `no initdb under ${root}/<version>/bin (Debian: apt-get install postgresql)` };
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return { missing: 'running as root and there is no postgres user to run initdb/pg_ctl as' };
  return { dir: path.join(root, versions[0]!, 'bin') };
}

export interface PrivateCluster {
  port: number;
  /** A URL of a database of its own on the cluster (made at start). */
  url: string;
  /** kill -9 of the postmaster and every backend; resolves once none is left. */
  kill9(): Promise<void>;
  /** Starts it again (crash recovery first) and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

export async function startPrivateCluster(bin: string): Promise<PrivateCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  fs.chmodSync(dir, 0o755);
  /** Runs a server binary as the user PostgreSQL accepts. */
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const settings = [
    ['-p', String(port)],
    ['-k', dir],
    ['-c', 'listen_addresses=127.0.0.1'],
    ['-c', 'fsync=off'],
    ['-c', 'full_page_writes=off'],
    ['-c', 'shared_buffers=32MB'],
    ['-c', 'max_connections=60'],
  ].flat();
  let postmaster: ChildProcess | null = null;
  const log = fs.openSync(path.join(dir, 'log'), 'a');
  const start = async () => {
    const postgres = path.join(bin, 'postgres');
    const child = asRoot
      ? spawn('runuser', ['-u', 'postgres', '--', postgres, '-D', data, ...settings], {
          stdio: ['ignore', log, log],
        })
      : spawn(postgres, ['-D', data, ...settings], { stdio: ['ignore', log, log] });
    postmaster = child;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const probe = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.query('select 1');
        await probe.end();
        return;
      } catch (err) {
        await probe.end().catch(() => {});
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(
            `PostgreSQL did not start: ${(err as Error).message}\n${fs.readFileSync(path.join(dir, 'log'), 'utf8').slice(-2000)}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  };
  await start();
  // A test that dies mid-drill leaves no PostgreSQL behind (its backends follow the postmaster).
  const leftover = () => {
    for (const pid of pids().slice(0, 1)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
  };
  process.once('exit', leftover);
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database bourse');
  await admin.end();

  /** The postmaster's pid (postmaster.pid's first line) and its children's. */
  const pids = (): number[] => {
    const file = path.join(data, 'postmaster.pid');
    if (!fs.existsSync(file)) return [];
    const main = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    const children = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === main;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [main, ...children];
  };
  // A killed process whose parent does not reap it stays a zombie (state Z): it is gone all the same.
  const alive = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
    } catch {
      return false;
    }
  };
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/bourse`,
    async kill9() {
      const all = pids();
      for (const pid of all) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
      while (all.some(alive)) await new Promise((r) => setTimeout(r, 10));
      // runuser (or this process) reaps the postmaster: then nothing holds postmaster.pid.
      const parent = postmaster;
      if (parent && parent.exitCode === null && parent.signalCode === null)
        await new Promise((r) => parent.once('exit', r));
    },
    start,
    async destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Not running.
      }
      process.off('exit', leftover);
      fs.closeSync(log);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
