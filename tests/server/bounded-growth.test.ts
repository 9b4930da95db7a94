import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_FIRES_PER_DAY, ALERTS_MAX, WATCHLIST_MAX_ITEMS, WATCHLIST_MAX_LISTS } from '#shared/rules';
import { addCard, BANK_CARDS_PER_USER } from '../../server/account/bank-cards';
import { CHAT_UNANSWERED_MAX, replyToChat } from '../../server/content/chat';
import type { ApiError } from '../../server/lib/errors';
import { UPLOADS_PER_USER } from '../../server/lib/uploads';
import {
  evaluateAlerts,
  NOTIFICATIONS_KEEP_MS,
  NOTIFICATIONS_KEPT,
  purgeInbox,
} from '../../server/watchlists/alerts';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { controlMarket, credit, expectLedgerConsistent, idem, type MarketControl } from '../support/trading';
import { ensureTradeCode, TRADE_CODE, upload } from '../support/wallet';

/**
 * Bounded growth: every row a user can create has a cap that a burst of parallel
 * requests cannot pass (the count and the write are one locked step, server/lib/caps.ts) and that
 * counts what matters: alerts with triggered ones, how often a user's alerts trigger, the inbox
 * kept for a window, uploads, watchlists and their items, bank cards, chat messages waiting for a
 * reply, pending orders. Bursts of 60–120 on both dialects.
 */

const DAY_MS = 24 * 3600 * 1000;

const count = async (
  s: TestServer,
  table: 'uploads' | 'bank_cards' | 'alerts' | 'watchlists',
  userId: number,
) =>
  Number(
    (
      await s.deps.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const statuses = (answers: Array<{ status: number; body: { msg: string; data: unknown } }>) => {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.body.msg === 'ok' ? 'ok' : `${a.status} ${String(a.body.data)}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
};

describe.each(DIALECTS)('bounded growth on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    m = controlMarket(s);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  it.runIf(enabled)(`keeps ${UPLOADS_PER_USER} of 120 parallel uploads, rows and files alike`, async () => {
    const u = await s.signUp();
    const answers = await Promise.all(Array.from({ length: 120 }, () => upload(s, u.token)));
    expect(statuses(answers)).toEqual({
      ok: UPLOADS_PER_USER,
      '409 errors.uploadLimit': 120 - UPLOADS_PER_USER,
    });
    expect(await count(s, 'uploads', u.id)).toBe(UPLOADS_PER_USER);
    const ids = answers.filter((a) => a.body.msg === 'ok').map((a) => (a.body.data as { id: string }).id);
    for (const id of ids) expect(fs.existsSync(`${s.config.uploadsDir}/${id}`)).toBe(true);
  });

  it.runIf(enabled)(`keeps ${BANK_CARDS_PER_USER} of 60 parallel new bank cards`, async () => {
    const u = await s.signUp();
    // The domain call itself: over HTTP the transaction password lets only a few checks run at
    // once (account/fund-password.ts), which would hide a cap that a burst passes.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        addCard(s.deps, u.id, {
          bank: 'HDFC Bank',
          branch_bank: 'Andheri East',
          bank_card: `50123456${String(i).padStart(4, '0')}11`,
          bank_user: 'Asha Rao',
          ifsc: 'HDFC0000123',
        }).then(
          () => 'ok',
          (err: ApiError) => `${err.status} ${err.key}`,
        ),
      ),
    );
    const tally: Record<string, number> = {};
    for (const a of answers) tally[a] = (tally[a] ?? 0) + 1;
    expect(tally).toEqual({ ok: BANK_CARDS_PER_USER, '409 errors.bankCardLimit': 60 - BANK_CARDS_PER_USER });
    expect(await count(s, 'bank_cards', u.id)).toBe(BANK_CARDS_PER_USER);
    // Over HTTP, with the transaction password, one more is refused the same way.
    await ensureTradeCode(s, u.token);
    const over = await s.call('bankAdd', {
      token: u.token,
      body: {
        bank: 'HDFC Bank',
        branch_bank: 'Andheri East',
        bank_card: '501234569999911',
        bank_user: 'Asha Rao',
        ifsc: 'HDFC0000123',
        stock_password: TRADE_CODE,
      },
    });
    expect([over.status, over.body.data]).toEqual([409, 'errors.bankCardLimit']);
  });

  it.runIf(enabled)(
    `keeps ${WATCHLIST_MAX_LISTS} lists and ${WATCHLIST_MAX_ITEMS} items per list under bursts`,
    async () => {
      const u = await s.signUp();
      const made = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          s.call('watchlistCreate', { token: u.token, body: { name: `List ${i}` } }),
        ),
      );
      // The default list is one of them.
      expect(statuses(made)).toEqual({
        ok: WATCHLIST_MAX_LISTS - 1,
        '409 errors.watchlistLimit': 60 - (WATCHLIST_MAX_LISTS - 1),
      });
      expect(await count(s, 'watchlists', u.id)).toBe(WATCHLIST_MAX_LISTS);
      const symbols = s.deps.market
        .instruments()
        .filter((i) => i.market !== 'INDEX')
        .slice(0, 80)
        .map((i) => i.symbol);
      expect(symbols).toHaveLength(80);
      const listId = (made.find((a) => a.body.msg === 'ok')!.body.data as { id: number }).id;
      const added = await Promise.all(
        symbols.map((symbol) => s.call('watchlistAdd', { token: u.token, body: { id: listId, symbol } })),
      );
      expect(statuses(added)).toEqual({
        ok: WATCHLIST_MAX_ITEMS,
        '409 errors.watchlistFull': 80 - WATCHLIST_MAX_ITEMS,
      });
      // Favourites are the default list: the same cap.
      const starred = await Promise.all(
        symbols.map((symbol) => s.call('favouriteAdd', { token: u.token, body: { symbol } })),
      );
      expect(statuses(starred)).toEqual({
        ok: WATCHLIST_MAX_ITEMS,
        '409 errors.watchlistFull': 80 - WATCHLIST_MAX_ITEMS,
      });
      const items = await s.deps.database.db
        .selectFrom('watchlist_items')
        .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
        .select(['watchlist_items.list_id'])
        .where('watchlists.user_id', '=', u.id)
        .execute();
      expect(items).toHaveLength(2 * WATCHLIST_MAX_ITEMS);
    },
  );

  it.runIf(enabled)(
    `keeps ${ALERTS_MAX} alerts, triggered ones included, and stops arming after ${ALERT_FIRES_PER_DAY} triggers a day`,
    async () => {
      const u = await s.signUp();
      m.pin('ITC.NS', 400);
      const created = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          s.call('alertCreate', {
            token: u.token,
            body: { symbol: 'ITC.NS', kind: 'above', value: 400.05 + i * 0.05 },
          }),
        ),
      );
      expect(statuses(created)).toEqual({ ok: ALERTS_MAX, '409 errors.alertLimit': 80 - ALERTS_MAX });
      // They all trigger: triggered alerts still count, so no new one fits.
      m.pin('ITC.NS', 500);
      expect(await evaluateAlerts(s.deps)).toBe(ALERTS_MAX);
      const more = await s.call('alertCreate', {
        token: u.token,
        body: { symbol: 'ITC.NS', kind: 'above', value: 600 },
      });
      expect([more.status, more.body.data]).toEqual([409, 'errors.alertLimit']);
      expect(await count(s, 'alerts', u.id)).toBe(ALERTS_MAX);
      // Re-armed near the price and triggered again, in bursts: the alerts stay ALERTS_MAX rows,
      // and once ALERT_FIRES_PER_DAY triggered in 24 hours no re-arm is taken.
      const ids = created.filter((a) => a.body.msg === 'ok').map((a) => (a.body.data as { id: number }).id);
      let fires = ALERTS_MAX;
      for (let round = 0; round < 3; round++) {
        const price = 500 + round;
        m.pin('ITC.NS', price);
        const rearmed = await Promise.all(
          ids.map((id) =>
            s.call('alertUpdate', { token: u.token, body: { id, kind: 'above', value: price + 0.05 } }),
          ),
        );
        const taken = rearmed.filter((a) => a.body.msg === 'ok').length;
        expect(taken).toBe(fires < ALERT_FIRES_PER_DAY ? ids.length : 0);
        for (const a of rearmed.filter((x) => x.body.msg !== 'ok'))
          expect([a.status, a.body.data]).toEqual([429, 'errors.alertDailyLimit']);
        m.pin('ITC.NS', price + 1);
        fires += await evaluateAlerts(s.deps);
        expect(await count(s, 'alerts', u.id)).toBe(ALERTS_MAX);
      }
      expect(fires).toBe(ALERT_FIRES_PER_DAY);
      // A day later the budget is back.
      s.clock.advance(24 * 3600 * 1000 + 1000);
      m.pin('ITC.NS', 700);
      const again = await s.call('alertUpdate', {
        token: u.token,
        body: { id: ids[0], kind: 'above', value: 700.05 },
      });
      expect(again.body.msg).toBe('ok');
    },
  );

  it.runIf(enabled)(
    `keeps a user's newest ${NOTIFICATIONS_KEPT} inbox items, none past the window`,
    async () => {
      const u = await s.signUp();
      const { db } = s.deps.database;
      const now = s.clock.now();
      // An old inbox: past the window, then a full window's worth.
      await db
        .insertInto('notifications')
        .values(
          Array.from({ length: NOTIFICATIONS_KEPT + 20 }, (_, i) => ({
            user_id: u.id,
            kind: 'alert' as const,
            ref_id: null,
            symbol: 'ITC.NS',
            params: '{}',
            // Older than a day: none counts towards the day's triggers.
            created_at: i < 10 ? now - NOTIFICATIONS_KEEP_MS - 1000 : now - 2 * DAY_MS,
            read_at: null,
          })),
        )
        .execute();
      m.pin('TCS.NS', 3000);
      const made = await s.call('alertCreate', {
        token: u.token,
        body: { symbol: 'TCS.NS', kind: 'below', value: 2999 },
      });
      expect(made.body.msg).toBe('ok');
      m.pin('TCS.NS', 2990);
      expect(await evaluateAlerts(s.deps)).toBe(1);
      const kept = await db
        .selectFrom('notifications')
        .select(['kind', 'created_at'])
        .where('user_id', '=', u.id)
        .orderBy('id', 'desc')
        .execute();
      expect(kept).toHaveLength(NOTIFICATIONS_KEPT);
      expect(kept[0]!.kind).toBe('alert');
      // The window: items older than it go at the job's next run, whatever their count.
      s.clock.advance(NOTIFICATIONS_KEEP_MS - 2 * DAY_MS + 1000);
      expect(await purgeInbox(s.deps)).toBeGreaterThanOrEqual(NOTIFICATIONS_KEPT - 1);
      const left = await db.selectFrom('notifications').select('kind').where('user_id', '=', u.id).execute();
      expect(left).toEqual([{ kind: 'alert' }]);
    },
  );

  it.runIf(enabled)(`takes at most ${CHAT_UNANSWERED_MAX} chat messages waiting for a reply`, async () => {
    const u = await s.signUp();
    const send = (i: number) =>
      s.call('messageSend', {
        token: u.token,
        body: { message: `hello ${i}`, client_id: `c-${i}-${Math.random()}` },
      });
    // The minute's rate first (20), in one burst of 60.
    const first = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i)));
    expect(statuses(first)).toEqual({ ok: 20, '429 errors.tooManyAttempts': 40 });
    s.clock.advance(61_000);
    const second = await Promise.all(Array.from({ length: 60 }, (_, i) => send(100 + i)));
    expect(statuses(second)).toEqual({
      ok: CHAT_UNANSWERED_MAX - 20,
      '429 errors.chatWaiting': 60 - (CHAT_UNANSWERED_MAX - 20),
    });
    // An answer opens the chat again.
    await replyToChat(s.deps, u.id, 'We are looking into it.');
    s.clock.advance(61_000);
    expect((await send(999)).body.msg).toBe('ok');
  });

  it.runIf(enabled)('rests at most MAX_OPEN_ORDERS of 120 parallel limit buys', async () => {
    const u = await s.signUp();
    await credit(s, u.id, 1_000_000_000);
    m.pin('RELIANCE.NS', 2500);
    const answers = await Promise.all(
      Array.from({ length: 120 }, () =>
        s.call('dealBuy', {
          token: u.token,
          headers: idem(),
          body: { tag: 'RELIANCE.NS', count: 1, price: 2400, mold: 'stock' },
        }),
      ),
    );
    const max = s.config.orders.maxOpen;
    expect(answers.filter((a) => a.body.msg === 'ok' && a.body.data.status === 0)).toHaveLength(max);
    expect(answers.filter((a) => a.body.data === 'errors.tooManyOpenOrders')).toHaveLength(120 - max);
  });
});
