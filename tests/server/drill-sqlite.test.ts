import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDatabase } from '../../server/db/index';
import { auditLedger } from '../../server/wallet/audit';
import { prepareDatabase } from '../bench/api-kit';
import { buyStream, call, freePort, type Instance, startInstance, stop, stopAll } from '../support/process';

/**
 * SQLite failure drill: the real server under a stream of buys when its disk refuses
 * writes. The database lives on a small tmpfs of the test's own, filled to the last byte (a full
 * disk: ENOSPC, SQLITE_FULL); where no file system can be mounted (not root), the server's file-size
 * limit is lowered under it instead (`prlimit --fsize`: writes past the files' end fail, EFBIG). Either
 * way: buys are refused with 503 `errors.unavailable` (reads still answer), nothing acknowledged is
 * lost, and once the disk takes writes again the same server buys again, without a restart; the
 * audit and SQLite's integrity check are clean.
 */

const SYMBOL = 'RELIANCE.NS';
const APP_TIMEOUT_MS = 10_000;

/** A folder on a 24 MB tmpfs of its own, or null where mounting is not allowed. */
function smallDisk(dir: string): string | null {
  const mnt = path.join(dir, 'disk');
  fs.mkdirSync(mnt);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mnt], { stdio: 'ignore' });
  return mounted.status === 0 ? mnt : null;
}

/** Writes a file until the disk has no byte left. */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size, 7);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const hasPrlimit = spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status === 0;

describe('SQLite on a disk that refuses writes', () => {
  const cleanups: Array<() => void> = [];
  afterAll(async () => {
    await stopAll();
    for (const c of cleanups.reverse()) c();
  }, 60_000);

  it('refuses buys with 503 while the disk is full, loses nothing acknowledged, and buys again once it has room', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-disk-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const disk = process.env.DRILL_DISK === 'rlimit' ? null : smallDisk(dir);
    if (disk) cleanups.push(() => spawnSync('umount', ['-l', disk]));
    if (!disk && !hasPrlimit) {
      console.warn(
        '\n!! SQLite disk drill SKIPPED: neither a tmpfs can be mounted (not root) nor prlimit found\n',
      );
      return;
    }
    const home = disk ?? path.join(dir, 'db');
    fs.mkdirSync(home, { recursive: true });
    const file = path.join(home, 'bourse.db');
    const url = `sqlite:${file}`;
    const tokens = await prepareDatabase(url, 8);
    const server: Instance = await startInstance('server', await freePort(), {
      DATABASE_URL: url,
      DIST_DIR: path.join(dir, 'no-dist'),
      UPLOADS_DIR: path.join(dir, 'uploads'),
      LOG_LEVEL: 'warn',
      DEMO_USER: '0',
      // Whatever the hour: a buy that rests instead of filling is acknowledged all the same.
      MAX_OPEN_ORDERS: '100000',
    });
    const pid = String(server.child.pid);
    const price = (await call(server, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;
    const stream = buyStream({
      instances: () => [server],
      tokens,
      symbol: SYMBOL,
      price,
      connections: 6,
      timeoutMs: APP_TIMEOUT_MS + 2000,
    });
    const acks = (n: number) =>
      vi.waitFor(() => expect(stream.acked.length).toBeGreaterThanOrEqual(n), {
        timeout: 60_000,
        interval: 20,
      });
    const filler = path.join(home, 'filler');
    try {
      await acks(40);
      // The disk refuses writes: full to the last byte, or no file may grow past its end.
      if (disk) fill(filler);
      else {
        const largest = Math.max(
          ...['', '-wal'].map((s) => (fs.existsSync(file + s) ? fs.statSync(file + s).size : 0)),
        );
        execFileSync('prlimit', ['--pid', pid, `--fsize=${largest}:unlimited`]);
      }
      await vi.waitFor(() => expect(stream.answers.get(503) ?? 0).toBeGreaterThan(20), {
        timeout: 60_000,
        interval: 20,
      });
      const refusedAt = stream.acked.length;
      const buy = await call(server, 'dealBuy', {
        token: tokens[0]!,
        body: { tag: SYMBOL, count: 1, price, mold: 'stock' },
        headers: { 'idempotency-key': `full-${Date.now()}` },
      });
      expect([buy.status, buy.body]).toEqual([503, { msg: 'no', data: 'errors.unavailable' }]);
      // Reads need no write: still answered.
      expect((await call(server, 'userInfo', { token: tokens[1]! })).status).toBe(200);

      // Room again: the same server, not restarted, takes buys again.
      if (disk) fs.rmSync(filler);
      else execFileSync('prlimit', ['--pid', pid, '--fsize=unlimited:unlimited']);
      await acks(refusedAt + 40);
    } finally {
      await stream.stop();
    }
    expect(server.child.exitCode).toBeNull();
    const statuses = Object.fromEntries(stream.answers);
    expect(Object.keys(statuses).sort(), JSON.stringify(statuses)).toEqual(['200', '503']);
    expect(stream.slowest).toBeLessThan(APP_TIMEOUT_MS);
    await stop(server.child);

    const database = createDatabase(url);
    try {
      expect(database.sqlite!.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(
        (await database.db.selectFrom('orders').select('id').execute()).map((r) => Number(r.id)),
      );
      expect(stream.acked.filter((o) => !ids.has(o.id))).toEqual([]);
      expect((await auditLedger(database.db)).problems).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
