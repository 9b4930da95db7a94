import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, type Database } from '../../server/db/index';
import { LOCK_CLASS, LOCKS } from '../../server/db/pg-locks';
import { auditLedger } from '../../server/wallet/audit';
import { call, freePort, type Instance, startInstance, stop, stopAll } from '../support/process';
import { freshPgDatabase, freshPhone, PG_URL } from '../support/server';
import { idem } from '../support/trading';

/**
 * Scale-out: two real server processes (`server/main.ts`, as `npm run cluster` starts
 * them) on one PostgreSQL database of their own, started at the same moment. Whatever one instance
 * did, the other must honour: sessions, login limits, prices, Idempotency-Keys, balances; and the
 * background jobs run on exactly one of them, the other taking over when it dies (kill -9).
 */

const PASSWORD = 'secret123';
const SYMBOL = 'RELIANCE.NS';

describe.runIf(PG_URL !== '')('two instances on one PostgreSQL database', () => {
  let a: Instance;
  let b: Instance;
  let dropDatabase: () => Promise<void> = async () => {};
  let database: Database;
  let dir: string;
  let dbName = '';

  beforeAll(async () => {
    const created = await freshPgDatabase();
    dropDatabase = created.drop;
    dbName = new URL(created.url).pathname.slice(1);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-cluster-'));
    const env = {
      DATABASE_URL: created.url,
      DIST_DIR: path.join(dir, 'no-dist'),
      UPLOADS_DIR: path.join(dir, 'uploads'),
      SCRYPT_N: '1024',
      LOG_LEVEL: 'warn',
      MARKET_SEED: '424242',
      // Recharges settle at the next run of the settlement job: proof that some instance runs it.
      SANDBOX_SETTLE_MS: '0',
      JOBS_LEADER_RETRY_MS: '300',
      REGISTER_LIMIT_ADDRESS: '100000',
    };
    // Started at the same moment on an empty database: they migrate and seed one after the other.
    [a, b] = await Promise.all([
      freePort().then((port) => startInstance('A', port, env)),
      freePort().then((port) => startInstance('B', port, env)),
    ]);
    database = createDatabase(created.url);
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    await database?.close();
    await dropDatabase();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const signUp = async (at: Instance) => {
    const phone = freshPhone();
    const reg = await call(at, 'register', { body: { user: phone, password: PASSWORD, code: 'BOURSE26' } });
    expect(reg.body.msg, `register on ${at.name}: ${reg.status} ${JSON.stringify(reg.body)}`).toBe('ok');
    const login = await call(at, 'login', { body: { user: phone, password: PASSWORD } });
    expect(login.body.msg, `login on ${at.name}: ${login.status} ${JSON.stringify(login.body)}`).toBe('ok');
    return { phone, token: login.body.data.token as string, id: login.body.data.id as number };
  };

  /** Funds a user by a bank recharge on one instance; the jobs' leader settles it. */
  const fund = async (at: Instance, token: string, units: number) => {
    const res = await call(at, 'recharge', { token, body: { count: units, method: 'bank' } });
    expect(res.body.msg, `recharge on ${at.name}: ${res.status} ${JSON.stringify(res.body)}`).toBe('ok');
    await vi.waitFor(
      async () => {
        const balance = await call(at === a ? b : a, 'balance', { token });
        expect(Number(balance.body.data.balance)).toBe(units);
      },
      { timeout: 20_000, interval: 100 },
    );
  };

  const expectAuditClean = async () => {
    expect((await auditLedger(database.db)).problems).toEqual([]);
  };

  it('prepared the database once although both started together', async () => {
    const demo = await database.db
      .selectFrom('users')
      .select('id')
      .where('phone', '=', '9876543210')
      .execute();
    expect(demo).toHaveLength(1);
    const ipos = await database.db
      .selectFrom('ipos')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const symbols = await database.db
      .selectFrom('ipos')
      .select((eb) => eb.fn.count<string>('symbol').distinct().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(ipos.n)).toBeGreaterThan(0);
    expect(Number(ipos.n)).toBe(Number(symbols.n));
  });

  it('a session made on one instance works on the other, and logging out on it ends it on both', async () => {
    const u = await signUp(a);
    // Both instances have the session in memory (SESSION_CACHE_MS, a minute by default).
    for (const at of [a, b]) expect((await call(at, 'userInfo', { token: u.token })).body.msg).toBe('ok');
    expect((await call(b, 'logout', { token: u.token })).body.msg).toBe('ok');
    // The instance that logged out refuses the very next call.
    const here = await call(b, 'userInfo', { token: u.token });
    expect(here.status).toBe(401);
    expect(here.body.msg).toBe('logout');
    // The other one as soon as the notice arrives: far sooner than the entry's minute.
    await vi.waitFor(
      async () => {
        const there = await call(a, 'userInfo', { token: u.token });
        expect(there.status).toBe(401);
        expect(there.body.msg).toBe('logout');
      },
      { timeout: 5_000, interval: 100 },
    );
  });

  it('login limits are shared: guesses on both count together', async () => {
    const u = await signUp(b);
    for (let i = 0; i < 5; i++) {
      const wrong = await call(i % 2 === 0 ? a : b, 'login', {
        body: { user: u.phone, password: 'wrong-pass1' },
      });
      expect(wrong.body.msg).toBe('no');
      expect(wrong.status).not.toBe(429);
    }
    for (const at of [a, b]) {
      const locked = await call(at, 'login', { body: { user: u.phone, password: PASSWORD } });
      expect(locked.status).toBe(429);
      expect(locked.body.data).toBe('errors.tooManyAttempts');
    }
  });

  it('prices agree: both quote the same bars and the same price for the same second', async () => {
    let compared = 0;
    for (let i = 0; i < 20 && compared < 3; i++) {
      const [qa, qb] = await Promise.all([
        call(a, 'quote', { query: { symbol: SYMBOL } }),
        call(b, 'quote', { query: { symbol: SYMBOL } }),
      ]);
      expect(qa.body.msg).toBe('ok');
      // Two requests may straddle a second; answers of one second must be identical.
      if (qa.body.data.as_of !== qb.body.data.as_of) continue;
      expect(qb.body.data).toEqual(qa.body.data);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(0);
    const query = { symbol: SYMBOL, mold: '1d', range: '1y' };
    const [ya, yb] = await Promise.all([call(a, 'yahoo', { query }), call(b, 'yahoo', { query })]);
    // Every finished day's bar is the same on both (today's may move between the two calls).
    expect(ya.body.data.rows.length).toBeGreaterThan(200);
    expect(yb.body.data.rows.slice(0, -1)).toEqual(ya.body.data.rows.slice(0, -1));
  });

  it('one Idempotency-Key sent to both instances at once fills once', async () => {
    const u = await signUp(a);
    await fund(a, u.token, 1_000_000);
    const price = (await call(a, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;
    const key = idem();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'dealBuy', {
          token: u.token,
          body: { tag: SYMBOL, count: 2, price, mold: 'stock' },
          headers: key,
        }),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body.msg).toBe('ok');
    const orders = await database.db.selectFrom('orders').select('id').where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(1);
    await expectAuditClean();
  });

  it('racing buys across both instances never spend more than the balance', async () => {
    const u = await signUp(b);
    const price = (await call(a, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;
    // About eight shares' worth: most of the 60 buys must be refused.
    const units = Math.ceil(price * 8);
    await fund(b, u.token, units);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'dealBuy', {
          token: u.token,
          body: { tag: SYMBOL, count: 1, price, mold: 'stock' },
          headers: idem(),
        }),
      ),
    );
    const ok = answers.filter((x) => x.body.msg === 'ok').length;
    const refused = answers.filter(
      (x) => x.status === 422 && x.body.data === 'errors.insufficientFunds',
    ).length;
    expect(ok + refused, JSON.stringify(answers.find((x) => x.body.msg !== 'ok')?.body)).toBe(60);
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    const user = await database.db
      .selectFrom('users')
      .select('balance')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(Number(user.balance)).toBeGreaterThanOrEqual(0);
    const orders = await database.db.selectFrom('orders').select('id').where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(ok);
    await expectAuditClean();
  });

  it('exactly one instance runs the jobs; when it is killed the other takes over', async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    /** The process ids of the servers holding the jobs' leader lock on this test's database. */
    const leaders = async (): Promise<number[]> => {
      const { rows } = await admin.query<{ application_name: string }>(
        `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted and l.classid = $1 and l.objid = $2
            and l.objsubid = 2 and l.database = (select oid from pg_database where datname = $3)`,
        [LOCK_CLASS, LOCKS.jobsLeader, dbName],
      );
      return rows.map((r) => Number(r.application_name.split(':')[1]));
    };
    try {
      let held: number[] = [];
      await vi.waitFor(
        async () => {
          held = await leaders();
          expect(held).toHaveLength(1);
        },
        { timeout: 10_000, interval: 100 },
      );
      const [leader, follower] = held[0] === a.child.pid ? [a, b] : [b, a];
      expect(held[0]).toBe(leader.child.pid);
      await stop(leader.child, 'SIGKILL');
      await vi.waitFor(
        async () => {
          expect(await leaders()).toEqual([follower.child.pid]);
        },
        { timeout: 15_000, interval: 100 },
      );
      // The jobs run again: a recharge on the survivor settles, once.
      const u = await signUp(follower);
      const res = await call(follower, 'recharge', { token: u.token, body: { count: 5000, method: 'bank' } });
      expect(res.body.msg, `recharge on ${follower.name}: ${res.status} ${JSON.stringify(res.body)}`).toBe(
        'ok',
      );
      await vi.waitFor(
        async () => {
          const balance = await call(follower, 'balance', { token: u.token });
          expect(balance.body.data.balance).toBe('5000.00');
        },
        { timeout: 20_000, interval: 100 },
      );
      await expectAuditClean();
    } finally {
      await admin.end();
    }
  });
});
