import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitsToMinor } from '#shared/money';
import { replyToChat } from '../../server/content/chat';
import { hotReads } from '../../server/db/hot';
import { withTx } from '../../server/db/index';
import { post } from '../../server/lib/ledger';
import { securityHeaders } from '../../server/lib/security-headers';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  NO_CHARGES_ENV,
  setTradePassword,
} from '../support/trading';

/**
 * The answers apps poll (user info, balance, the two unread counts, /healthz) byte for byte: the envelope,
 * the field order, the number formats and the headers, so that making them cheaper (one statement,
 * the session cache, compiled serialisers) can never change what a phone receives.
 */
describe.each(DIALECTS)('polled answers byte for byte on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) {
      s = await startTestServer(name, NO_CHARGES_ENV);
      controlMarket(s).pin('RELIANCE.NS', 2500);
    }
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  /** Every answer carries the security headers, as computed once at start. */
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    for (const [header, value] of securityHeaders({ hsts: false, api: true }))
      expect(headers[header], header).toBe(value);
  };

  it.runIf(enabled)(
    'user info with a position, a pending buy and a trade password; balance; unread count',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, unitsToMinor(10_000));
      await setTradePassword(s, u.id);
      // Filled at the pinned quote: a position of 2 worth 5,000.00.
      const filled = await s.call('dealBuy', {
        token: u.token,
        body: { mold: 'stock', tag: 'RELIANCE.NS', count: 2, price: 2500 },
        headers: idem(),
      });
      expect(filled.body.data.status).toBe(1);
      // Below the quote: pending, 2,400.00 reserved.
      const pending = await s.call('dealBuy', {
        token: u.token,
        body: { mold: 'stock', tag: 'RELIANCE.NS', count: 1, price: 2400 },
        headers: idem(),
      });
      expect(pending.body.data.status).toBe(0);
      const { no } = await s.deps.database.db
        .selectFrom('users')
        .select('no')
        .where('id', '=', u.id)
        .executeTakeFirstOrThrow();

      const info = await s.call('userInfo', { token: u.token });
      expect(info.status).toBe(200);
      expect(info.text).toBe(
        `{"msg":"ok","data":{"id":${u.id},"user":"${u.phone}","no":"${no}","img":null,` +
          `"total":"10000.00","money":"2600.00","loan":"0.00","has_fund_password":true,"frozen":false}}`,
      );
      expect(info.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(info.headers['content-length']).toBe(String(Buffer.byteLength(info.text)));
      expectSecurityHeaders(info.headers);

      const balance = await s.call('balance', { token: u.token });
      expect(balance.text).toBe('{"msg":"ok","data":{"balance":"2600.00"}}');
      expect(balance.headers['content-type']).toBe('application/json; charset=utf-8');
      expectSecurityHeaders(balance.headers);

      await replyToChat(s.deps, u.id, 'Hello');
      const unread = await s.call('unreadCount', { token: u.token });
      expect(unread.text).toBe('{"msg":"ok","data":{"unread_count":1}}');
      expectSecurityHeaders(unread.headers);

      const inbox = () => s.call('notificationUnread', { token: u.token });
      expect((await inbox()).text).toBe('{"msg":"ok","data":{"unread_count":0,"latest_id":0}}');
      const item = (ref: number) => ({
        user_id: u.id,
        kind: 'alert' as const,
        ref_id: ref,
        symbol: 'RELIANCE.NS',
        params: '{}',
        created_at: s.clock.now() + ref,
        read_at: null,
      });
      await s.deps.database.db
        .insertInto('notifications')
        .values([item(1), item(2)])
        .execute();
      const newest = await s.deps.database.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('user_id', '=', u.id)
        .executeTakeFirstOrThrow();
      const answer = await inbox();
      expect(answer.text).toBe(`{"msg":"ok","data":{"unread_count":2,"latest_id":${Number(newest.id)}}}`);
      expectSecurityHeaders(answer.headers);
      expect((await s.call('notificationRead', { token: u.token, body: {} })).body.msg).toBe('ok');
      expect((await inbox()).text).toBe(`{"msg":"ok","data":{"unread_count":0,"latest_id":0}}`);
    },
  );

  it.runIf(enabled)('a fresh account, /healthz, and the refusal without a session', async () => {
    const u = await s.signUp();
    const { no } = await s.deps.database.db
      .selectFrom('users')
      .select('no')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect((await s.call('userInfo', { token: u.token })).text).toBe(
      `{"msg":"ok","data":{"id":${u.id},"user":"${u.phone}","no":"${no}","img":null,` +
        `"total":"0.00","money":"0.00","loan":"0.00","has_fund_password":false,"frozen":false}}`,
    );
    // Outside the API and its contract.
    const health = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.body).toBe('{"ok":true}');
    expectSecurityHeaders(health.headers);
    const refused = await s.call('userInfo');
    expect(refused.status).toBe(401);
    expect(refused.text).toBe('{"msg":"logout","data":"errors.sessionExpired"}');
    expectSecurityHeaders(refused.headers);
    const unknown = await s.call('balance', { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(401);
    expect(unknown.text).toBe('{"msg":"logout","data":"errors.authKeyIncorrect"}');
  });

  it.runIf(enabled)('user info reads committed rows only, never a transaction under way', async () => {
    const u = await s.signUp();
    const hot = hotReads(s.deps.database);
    const inside = await withTx(s.deps.database, async (trx) => {
      await post(trx, {
        userId: u.id,
        amount: unitsToMinor(700),
        reason: 'recharge',
        refType: 'test',
        at: 1,
      });
      return hot.userInfo(u.id);
    });
    expect(inside?.user.balance).toBe(0);
    expect((await hot.userInfo(u.id))?.user.balance).toBe(unitsToMinor(700));
  });
});
