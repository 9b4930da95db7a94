import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitsToMinor } from '#shared/money';
import { createUser } from '../../server/account/users';
import { replyToChat } from '../../server/content/chat';
import { publishNews } from '../../server/content/news';
import { NEWS_VERSION_CHECK_MS } from '../../server/content/news-cache';
import { hotReads, userInfoSql } from '../../server/db/hot';
import { createDatabase, migrate, withTx } from '../../server/db/index';
import { numbered } from '../../server/db/statement';
import { post } from '../../server/lib/ledger';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/** The polling reads of db/hot.ts and the news cache: cheaper, and never a different answer. */
describe.each(DIALECTS)('hot reads on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.skipIf(!enabled)('reads committed data only, never a transaction still under way', async () => {
    const u = await s.signUp();
    const hot = hotReads(s.deps.database);
    const seenInside = await withTx(s.deps.database, async (trx) => {
      await post(trx, {
        userId: u.id,
        amount: unitsToMinor(700),
        reason: 'recharge',
        refType: 'test',
        at: 1,
      });
      return hot.balance(u.id);
    });
    expect(seenInside).toBe(0);
    expect(await hot.balance(u.id)).toBe(unitsToMinor(700));
    const info = await s.call('userInfo', { token: u.token });
    expect(info.body.data).toMatchObject({ id: u.id, money: '700.00', total: '700.00', loan: '0.00' });
    expect((await s.call('balance', { token: u.token })).body.data).toEqual({
      balance: '700.00',
    });
  });

  it.skipIf(!enabled)('counts unread agent messages until they are read', async () => {
    const u = await s.signUp();
    const unread = async () => (await s.call('unreadCount', { token: u.token })).body.data;
    expect(await unread()).toEqual({ unread_count: 0 });
    await replyToChat(s.deps, u.id, 'Hello');
    await replyToChat(s.deps, u.id, 'Still there?');
    expect(await unread()).toEqual({ unread_count: 2 });
    await s.call('messageRead', { token: u.token });
    expect(await unread()).toEqual({ unread_count: 0 });
  });

  it.skipIf(!enabled)('answers a session lookup for a user id and nothing for an unknown token', async () => {
    const u = await s.signUp();
    const hot = hotReads(s.deps.database);
    expect(await hot.session('0'.repeat(64))).toBeUndefined();
    expect(await hot.userInfo(999_999_999)).toBeUndefined();
    expect(await hot.balance(999_999_999)).toBeUndefined();
    const rows = await hot.userInfo(u.id);
    expect(rows?.user).toMatchObject({ id: u.id, phone: u.phone, balance: 0, funds: 0, loan: 0 });
    expect(rows?.user.has_fund_password).toBe(false);
  });

  it.skipIf(!enabled)(
    "reads a user's open buys from the partial index orders_open_buys, not from every order",
    async () => {
      const u = await s.signUp();
      const database = s.deps.database;
      let plan: string;
      if (database.sqlite) {
        const rows = database.sqlite.prepare(`explain query plan ${userInfoSql('sqlite')}`).all(u.id);
        plan = rows.map((r) => (r as { detail: string }).detail).join('\n');
      } else {
        // The planner may use any index it can when scans are off; a predicate that no longer
        // matches the index's leaves it orders_user or a scan.
        const client = await database.pool!.connect();
        try {
          await client.query('set enable_seqscan = off');
          const text = numbered(userInfoSql('postgres')).replace('$1', String(u.id));
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${text}`);
          plan = rows.map((r) => r['QUERY PLAN']).join('\n');
          await client.query('reset enable_seqscan');
        } finally {
          client.release();
        }
      }
      expect(plan).toMatch(/orders_open_buys/);
    },
  );

  it.skipIf(!enabled)(
    'shows an article published here at once, and one written elsewhere soon after',
    async () => {
      const titles = async (page = 1) =>
        (await s.call('newsList', { query: { page, limit: 10 } })).body.data.rows.map(
          (r: { title: string }) => r.title,
        );
      const before = await s.call('newsList', { query: { page: 1, limit: 10 } });
      expect(before.headers['content-type']).toMatch(/^application\/json/);
      expect((await s.call('newsList', { query: { page: 1, limit: 10 } })).body).toEqual(before.body);

      await publishNews(s.deps, { title: 'Cached? No', subhead: 'here', html: '<p>x</p>' });
      expect((await titles())[0]).toBe('Cached? No');

      // Another process (the ops CLI) inserts without reaching this process's cache.
      const now = s.clock.now() + 1;
      await s.deps.database.db
        .insertInto('news')
        .values({
          title: 'From elsewhere',
          subhead: '',
          img: null,
          content: '<p>y</p>',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await new Promise((r) => setTimeout(r, NEWS_VERSION_CHECK_MS + 50));
      const after = (await s.call('newsList', { query: { page: 1, limit: 10 } })).body.data;
      expect(after.rows[0].title).toBe('From elsewhere');
      expect(after.count).toBe(before.body.data.count + 2);
    },
  );
});

/** PostgreSQL only: how the polled reads reach the database there. */
const pg = DIALECTS.find((d) => d.name === 'postgres')!;
describe('hot reads on postgres, prepared', () => {
  let s: TestServer;
  beforeAll(async () => {
    if (pg.enabled) s = await startTestServer('postgres');
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(pg.enabled)(
    'on PostgreSQL they are named prepared statements, planned once per pooled connection',
    async () => {
      const u = await s.signUp();
      const pool = s.deps.database.pool!;
      const hot = hotReads(s.deps.database);
      await hot.userInfo(u.id);
      await hot.balance(u.id);
      // The pool hands back the connection released last: the one those reads used.
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          "select name from pg_prepared_statements where name like 'bourse_hot_%' order by name",
        );
        expect(rows.map((r) => r.name)).toEqual(
          expect.arrayContaining(['bourse_hot_balance', 'bourse_hot_userInfo']),
        );
      } finally {
        client.release();
      }
      // And a second call still reads the data of now, not of the first call.
      await withTx(s.deps.database, (trx) =>
        post(trx, { userId: u.id, amount: unitsToMinor(5), reason: 'recharge', refType: 'test', at: 1 }),
      );
      expect(await hot.balance(u.id)).toBe(unitsToMinor(5));
    },
  );
});

describe('hot reads on SQLite in memory', () => {
  it('with no second connection to read from, the same reads go through Kysely', async () => {
    const database = createDatabase('sqlite::memory:');
    try {
      expect(database.reader).toBeNull();
      await migrate(database);
      const id = await withTx(database, async (trx) => {
        const userId = await createUser(trx, {
          phone: '9000000001',
          passwordHash: 'x',
          at: 1,
          no: 'M0000001',
        });
        await post(trx, { userId, amount: unitsToMinor(42), reason: 'recharge', refType: 'test', at: 1 });
        return userId;
      });
      const hot = hotReads(database);
      expect(await hot.balance(id)).toBe(unitsToMinor(42));
      expect(await hot.balance(id + 1)).toBeUndefined();
      expect((await hot.userInfo(id))?.user).toMatchObject({ id, balance: unitsToMinor(42) });
      expect(await hot.unreadCount(id)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
