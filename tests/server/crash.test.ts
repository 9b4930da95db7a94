import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../server/db/index';
import { auditLedger } from '../../server/wallet/audit';
import { prepareDatabase } from '../bench/api-kit';
import { call, freePort, type Instance, startInstance, stop, stopAll } from '../support/process';
import { idem } from '../support/trading';

/**
 * Crash safety of orders: the real server on SQLite (synchronous=FULL), buys from many
 * connections at once, killed with SIGKILL while they are in flight. After a restart every order
 * the server acknowledged is there, its Idempotency-Key replays the same answer, and the ledger
 * audit is clean. Once per commit mode: group commit (the default) and one commit per request.
 */

const SYMBOL = 'RELIANCE.NS';
const USERS = 8;
const CONNECTIONS = 24;
/** Acknowledged orders to wait for before the kill: the kill lands in the middle of the load. */
const ACKS_BEFORE_KILL = 120;

describe.each([
  { mode: 'group commit', env: { SQLITE_GROUP_COMMIT: '1' } },
  { mode: 'a commit per request', env: { SQLITE_GROUP_COMMIT: '0' } },
])('kill -9 under buy load ($mode)', ({ env: modeEnv }) => {
  const dirs: string[] = [];
  afterAll(async () => {
    await stopAll();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged order; the audit is clean after the restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-crash-'));
    dirs.push(dir);
    const url = `sqlite:${path.join(dir, 'crash.db')}`;
    const tokens = await prepareDatabase(url, USERS);
    const env = {
      ...modeEnv,
      DATABASE_URL: url,
      DIST_DIR: path.join(dir, 'no-dist'),
      UPLOADS_DIR: path.join(dir, 'uploads'),
      LOG_LEVEL: 'warn',
      DEMO_USER: '0',
    };
    let server: Instance = await startInstance('server', await freePort(), env);
    const price = (await call(server, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;

    const acked = new Map<string, { id: number; token: string; body: unknown }>();
    let killed = false;
    let reachedKill: () => void = () => {};
    const enough = new Promise<void>((resolve) => {
      reachedKill = resolve;
    });
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const token = tokens[(w + i) % tokens.length] as string;
        const key = idem();
        try {
          const res = await call(server, 'dealBuy', {
            token,
            body: { tag: SYMBOL, count: 1, price, mold: 'stock' },
            headers: key,
          });
          if (res.body.msg === 'ok') {
            acked.set(key['idempotency-key'] as string, { id: res.body.data.id, token, body: res.body });
            if (acked.size >= ACKS_BEFORE_KILL) reachedKill();
          }
        } catch {
          // The connection died with the server: not acknowledged, so nothing is promised.
        }
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, (_, w) => worker(w));
    await enough;
    killed = true;
    await stop(server.child, 'SIGKILL');
    await Promise.all(workers);
    const ackedAtKill = new Map(acked);
    expect(ackedAtKill.size).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);

    // The database as the crash left it, opened by the restarted server and by the audit.
    server = await startInstance('restarted', await freePort(), env);
    try {
      const database = createDatabase(url);
      try {
        const ids = new Set(
          (await database.db.selectFrom('orders').select('id').execute()).map((r) => Number(r.id)),
        );
        const missing = [...ackedAtKill.values()].filter((o) => !ids.has(o.id));
        expect(missing).toEqual([]);
        expect((await auditLedger(database.db)).problems).toEqual([]);
      } finally {
        await database.close();
      }
      // An acknowledged key replays its answer: the client retrying after the crash buys nothing more.
      const [key, order] = [...ackedAtKill.entries()][0]!;
      const replay = await call(server, 'dealBuy', {
        token: order.token,
        body: { tag: SYMBOL, count: 1, price, mold: 'stock' },
        headers: { 'idempotency-key': key },
      });
      expect(replay.body).toEqual(order.body);
    } finally {
      await stop(server.child);
    }
  }, 120_000);
});
