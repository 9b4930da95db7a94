import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceToTicks } from '#shared/money';
import { NOTICE_EVENTS, NOTICE_KINDS } from '#shared/notices';
import { STOCK_STATUS as STOCK } from '#shared/status';
import { postSecurityNotice } from '../../server/account/security-events';
import { replyToChat } from '../../server/content/chat';
import { withTx } from '../../server/db/index';
import type { DB } from '../../server/db/schema';
import { consoleActor } from '../../server/lib/audit-log';
import { lastSession } from '../../server/market/hours';
import { allotIpoIn } from '../../server/trading/ipo';
import { closePending, fillPending, matchPendingOrders } from '../../server/trading/matching';
import { squareOffIntraday } from '../../server/trading/squareoff';
import { confirmDeposit, rejectDeposit } from '../../server/wallet/deposits';
import { payWithdrawal, refundWithdrawal } from '../../server/wallet/settlement';
import { evaluateAlerts } from '../../server/watchlists/alerts';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertIpo,
  toSession,
} from '../support/trading';
import { addCard, TRADE_CODE } from '../support/wallet';

/** Where a security event came from: a phone's browser and the address the server saw. */
const ORIGIN = {
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
  address: '203.0.113.7',
};

/**
 * Every notice is written in the transaction of its event (server/notify/notify.ts): for each kind of
 * event, the event's function run inside a transaction that then fails leaves no outbox row (and
 * no event), and run for real leaves exactly one, for its user, with what happened. Events that make
 * their own transactions (an alert firing, a square-off, a withdrawal asked for) leave one row per
 * event, at the event's time. A cancel the user asked for tells nobody.
 */
const SYMBOL = 'RELIANCE.NS';

describe.each(DIALECTS)('a notice for every event, in its transaction, on $name', ({ name, enabled }) => {
  let s: TestServer;
  const covered = new Set<string>();
  beforeAll(async () => {
    if (!enabled) return;
    // A new card is no reason to hold a payout here: the review threshold holds one instead.
    s = await startTestServer(name, { NEW_CARD_HOLD_MS: '0' });
    controlMarket(s).pin(SYMBOL, 2500);
    toSession(s, SYMBOL);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  async function trader() {
    const u = await s.signUp();
    await credit(s, u.id, 100_000_000);
    return u;
  }
  const outbox = (userId: number) =>
    s.deps.database.db
      .selectFrom('push_outbox')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  /** `event` inside a transaction that then fails: nothing of it, notice included, is left. */
  async function rolledBack(userId: number, event: (trx: Kysely<DB>) => Promise<unknown>) {
    const before = (await outbox(userId)).length;
    await expect(
      withTx(s.deps.database, async (trx) => {
        await event(trx);
        throw new Error('the event fails after its notice was written');
      }),
    ).rejects.toThrow('the event fails');
    expect(await outbox(userId)).toHaveLength(before);
  }
  /** `event` for real: exactly one more notice, of `kind` and `event`, for the user. */
  async function notified(
    userId: number,
    kind: string,
    event: string | undefined,
    run: () => Promise<unknown>,
  ) {
    const before = (await outbox(userId)).length;
    await run();
    const rows = await outbox(userId);
    expect(rows).toHaveLength(before + 1);
    const row = rows[rows.length - 1]!;
    expect(row).toMatchObject({ user_id: userId, kind, state: 0 });
    expect(JSON.parse(row.params).event).toBe(event);
    covered.add(event ? `${kind}.${event}` : kind);
    return row;
  }
  const resting = async (token: string, price: number) => {
    const placed = await s.call('dealBuy', {
      token,
      body: { mold: 'stock', tag: SYMBOL, count: 2, price, order_type: 'limit' },
      headers: idem(),
    });
    expect(placed.body.data.status, JSON.stringify(placed.body)).toBe(STOCK.pending);
    return s.deps.database.db
      .selectFrom('orders')
      .selectAll()
      .where('no', '=', placed.body.data.no)
      .executeTakeFirstOrThrow();
  };
  const statusOf = async (id: number) =>
    (
      await s.deps.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  it.runIf(enabled)('an alert fires: its notice with the inbox item, at the firing', async () => {
    const control = controlMarket(s);
    control.pin(SYMBOL, 2500);
    const u = await trader();
    await s.call('alertCreate', { token: u.token, body: { symbol: SYMBOL, kind: 'above', value: 2510 } });
    control.pin(SYMBOL, 2520);
    const row = await notified(u.id, 'alert', undefined, () => evaluateAlerts(s.deps));
    const inbox = await s.deps.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('id', '=', row.notification_id!)
      .executeTakeFirstOrThrow();
    expect(inbox).toMatchObject({ user_id: u.id, kind: 'alert', created_at: row.created_at });
    control.pin(SYMBOL, 2500);
  });

  it.runIf(enabled)(
    'an order fills, expires or is rejected after placement; a cancel tells nobody',
    async () => {
      const u = await trader();
      const fill = await resting(u.token, 2450);
      const at = priceToTicks(2440);
      await rolledBack(u.id, (trx) => fillPending(s.deps, trx, fill.id, at));
      expect(await statusOf(fill.id)).toBe(STOCK.pending);
      await notified(u.id, 'order', 'filled', () =>
        withTx(s.deps.database, (trx) => fillPending(s.deps, trx, fill.id, at)),
      );

      for (const [status, event] of [
        [STOCK.expired, 'expired'],
        [STOCK.failed, 'rejected'],
      ] as const) {
        const order = await resting(u.token, 2450);
        await rolledBack(u.id, (trx) => closePending(s.deps, trx, order, status));
        expect(await statusOf(order.id)).toBe(STOCK.pending);
        await notified(u.id, 'order', event, () =>
          withTx(s.deps.database, (trx) => closePending(s.deps, trx, order, status)),
        );
      }
      const mine = await resting(u.token, 2450);
      const before = (await outbox(u.id)).length;
      const cancel = await s.call('orderCancel', { token: u.token, body: { no: mine.no }, headers: idem() });
      expect(cancel.body.data.status).toBe(STOCK.cancelled);
      expect(await outbox(u.id)).toHaveLength(before);
      // The match job's fills are the same function's: one notice per fill.
      const job = await resting(u.token, 2450);
      controlMarket(s).pin(SYMBOL, 2440);
      await notified(u.id, 'order', 'filled', () => matchPendingOrders(s.deps));
      expect(await statusOf(job.id)).toBe(STOCK.success);
      controlMarket(s).pin(SYMBOL, 2500);
    },
  );

  it.runIf(enabled)('an intraday position is squared off at the close', async () => {
    toSession(s, SYMBOL);
    const u = await trader();
    const day = await s.call('dealBuy', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 3, price: 2500, product: 'intraday' },
      headers: idem(),
    });
    expect(day.body.data.status, JSON.stringify(day.body)).toBe(STOCK.success);
    const now = s.clock.now();
    s.clock.advance(lastSession('NSE', now).close + 60_000 - now);
    const row = await notified(u.id, 'order', 'squaredOff', () => squareOffIntraday(s.deps));
    expect(JSON.parse(row.params)).toMatchObject({ side: 'sell', count: 3 });
    toSession(s, SYMBOL);
  });

  it.runIf(enabled)('an IPO is allotted, or not', async () => {
    const ipo = await insertIpo(s);
    const [small, large] = [await trader(), await trader()];
    for (const [u, count] of [
      [small, 100],
      [large, 200],
    ] as const) {
      const applied = await s.call('ipoBuy', {
        token: u.token,
        body: { id: ipo.id, tag: ipo.symbol, count, price: 120.5 },
        headers: idem(),
      });
      expect(applied.body.msg, JSON.stringify(applied.body)).toBe('ok');
    }
    await rolledBack(large.id, (trx) => allotIpoIn(s.deps, trx, ipo.id, 5000));
    await notified(large.id, 'ipo', 'allotted', async () => {
      await withTx(s.deps.database, (trx) => allotIpoIn(s.deps, trx, ipo.id, 5000));
    });
    const [row] = (await outbox(small.id)).filter((r) => r.kind === 'ipo');
    expect(JSON.parse(row!.params)).toMatchObject({ event: 'notAllotted', count: 0 });
    covered.add('ipo.notAllotted');
  });

  it.runIf(enabled)('a withdrawal is held for review, paid or refunded', async () => {
    const u = await trader();
    const card = await addCard(s, u.token);
    const withdraw = (count: number) =>
      s.call('withdraw', {
        token: u.token,
        body: { bank_id: card, count, stock_password: TRADE_CODE },
        headers: idem(),
      });
    // Refused (more than the balance): no notice.
    const before = (await outbox(u.id)).length;
    expect((await withdraw(5_000_000)).body.msg).toBe('no');
    expect(await outbox(u.id)).toHaveLength(before);
    await notified(u.id, 'payout', 'held', () => withdraw(300_000));
    // Paid and refunded on a second customer: the first one's 24 hours already hold 3,00,000,
    // so any further payout of theirs is held for a second person as well.
    const v = await trader();
    const other = await addCard(s, v.token);
    for (const [move, event] of [
      [payWithdrawal, 'paid'],
      [refundWithdrawal, 'refunded'],
    ] as const) {
      const asked = await s.call('withdraw', {
        token: v.token,
        body: { bank_id: other, count: 1_000, stock_password: TRADE_CODE },
        headers: idem(),
      });
      expect(asked.body.msg, JSON.stringify(asked.body)).toBe('ok');
      const id = asked.body.data.id as number;
      await rolledBack(v.id, (trx) => move(trx, id, s.clock.now()));
      await notified(v.id, 'payout', event, () =>
        withTx(s.deps.database, (trx) => move(trx, id, s.clock.now())),
      );
      // Once: a second settlement of the same row moves nothing and tells nobody.
      await withTx(s.deps.database, (trx) => move(trx, id, s.clock.now()));
      expect((await outbox(v.id)).filter((r) => r.kind === 'payout')).toHaveLength(event === 'paid' ? 1 : 2);
    }
  });

  it.runIf(enabled)('a deposit is confirmed or rejected in the back office', async () => {
    const u = await s.signUp();
    const actor = consoleActor('test');
    for (const [decide, event] of [
      [(id: number) => confirmDeposit(s.deps, actor, id), 'recharged'],
      [(id: number) => rejectDeposit(s.deps, actor, id, 'No such transfer'), 'rechargeRejected'],
    ] as const) {
      const asked = await s.call('recharge', { token: u.token, body: { count: 5000, method: 'bank' } });
      expect(asked.body.msg, JSON.stringify(asked.body)).toBe('ok');
      const id = asked.body.data.id as number;
      const row = await notified(u.id, 'payout', event, () => decide(id));
      expect(JSON.parse(row.params).amount).toBe(500_000);
      // Once: a second decision on the same recharge is refused and tells nobody.
      await expect(decide(id)).rejects.toThrow();
      expect((await outbox(u.id)).filter((r) => r.kind === 'payout')).toHaveLength(
        event === 'recharged' ? 1 : 2,
      );
    }
  });

  it.runIf(enabled)('customer service replies (a push, not an inbox item); a security event', async () => {
    const u = await trader();
    await rolledBack(u.id, (trx) => replyToChat(s.deps, u.id, 'We are on it', trx));
    const chat = await notified(u.id, 'chat', 'reply', () =>
      withTx(s.deps.database, (trx) => replyToChat(s.deps, u.id, 'We are on it', trx)),
    );
    expect(chat.notification_id).toBeNull();
    await rolledBack(u.id, (trx) =>
      postSecurityNotice(trx, u.id, 'recoveryUsed', s.clock.now(), { left: 9 }, ORIGIN),
    );
    const security = await notified(u.id, 'security', 'recoveryUsed', () =>
      withTx(s.deps.database, (trx) =>
        postSecurityNotice(trx, u.id, 'recoveryUsed', s.clock.now(), { left: 9 }, ORIGIN),
      ),
    );
    expect(security.notification_id).not.toBeNull();
  });

  it.runIf(enabled)('every kind and event of src/shared/notices.ts was covered above', () => {
    const all = NOTICE_KINDS.flatMap((kind) =>
      kind === 'alert'
        ? ['alert']
        : kind === 'security'
          ? ['security.recoveryUsed']
          : NOTICE_EVENTS[kind].map((e) => `${kind}.${e}`),
    );
    expect([...covered].sort()).toEqual(all.sort());
  });
});
