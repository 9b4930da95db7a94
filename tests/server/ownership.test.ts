import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type EndpointName } from '#shared/contract/index';
import { withTx } from '../../server/db/index';
import { uploadReadPath } from '../../server/lib/uploads';
import { disburseLoan } from '../../server/wallet/settlement';
import { evaluateAlerts } from '../../server/watchlists/alerts';
import { newDevice } from '../support/push';
import { validRequest } from '../support/schemas';
import { type Answer, DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  idem,
  insertBlockItem,
  insertIpo,
  setTradePassword,
} from '../support/trading';
import { enrolPasskey } from '../support/two-factor';
import { addCard, TRADE_CODE, upload } from '../support/wallet';

/**
 * The ownership matrix: every endpoint that needs a session has an entry saying how a
 * second user could reach the first user's rows — by naming one of them (`foreign`: user B names
 * user A's id or number and gets not-found, and A's row is untouched) or by reading a per-user
 * list (`own`: B sees nothing of A's) — or why it cannot (`self`: it names no row of anyone).
 * An endpoint added to the contract without an entry fails the test, and a visitor without a
 * session gets the logout answer from every one of them.
 */

interface Owner {
  token: string;
  id: number;
  card: number;
  rechargeId: number;
  withdrawalId: number;
  orderNo: string;
  restingNo: string;
  ipoNo: string;
  fundOrderId: number;
  blockNo: string;
  loanId: number;
  uploadId: string;
  uploadUrl: string;
  favourite: string;
  listId: number;
  alertId: number;
  notificationId: number;
  passkeyId: number;
  pushDeviceId: number;
}

type Call = TestServer['call'];
type Entry =
  | {
      kind: 'foreign';
      probe: (call: Call, b: string, a: Owner) => Promise<{ status: number; body: Answer }>[];
    }
  | {
      kind: 'own';
      read: (call: Call, b: string) => Promise<{ status: number; body: Answer }>;
      mine: (data: unknown, a: Owner) => boolean;
    }
  | { kind: 'self'; why: string };

const CARD = {
  bank: 'Other Bank',
  branch_bank: 'Elsewhere',
  bank_card: '9999888877776666',
  bank_user: 'Mallory',
  ifsc: 'EVIL0000001',
};
const has = (data: unknown, needle: string | number) => JSON.stringify(data).includes(JSON.stringify(needle));
const idIn = (rows: unknown, id: number) =>
  Array.isArray(rows) && rows.some((r) => (r as { id: number }).id === id);

const MATRIX: Record<EndpointName, Entry> = {
  login: { kind: 'self', why: 'public: no session' },
  register: { kind: 'self', why: 'public: no session' },
  forget: { kind: 'self', why: 'public: no session' },
  config: { kind: 'self', why: 'public market/config data' },
  yahoo: { kind: 'self', why: 'public market data' },
  quote: { kind: 'self', why: 'public market data' },
  stockList: { kind: 'self', why: 'public market data' },
  categoryList: { kind: 'self', why: 'public market data' },
  indexList: { kind: 'self', why: 'public market data' },
  currencyList: { kind: 'self', why: 'public market data' },
  marketList: { kind: 'self', why: 'public market data' },
  marketSearch: { kind: 'self', why: 'public market data' },
  depth: { kind: 'self', why: 'public market data' },
  watchlistCreate: { kind: 'self', why: 'creates a list for the caller' },
  alertCreate: { kind: 'self', why: 'creates an alert for the caller on a public symbol' },
  ipoList: { kind: 'self', why: 'public catalogue' },
  fundList: { kind: 'self', why: 'public catalogue' },
  fundNav: { kind: 'self', why: "a public fund's NAV history" },
  fundRedeem: { kind: 'self', why: "redeems the caller's own units of a public fund" },
  fxRate: { kind: 'self', why: 'public: the USD rate the server converts at' },
  newsList: { kind: 'self', why: 'public news' },
  newsArticle: { kind: 'self', why: 'public news' },
  logout: { kind: 'self', why: "ends the caller's own session" },
  kefu: { kind: 'self', why: 'the same chat route for everyone' },
  favouriteAdd: { kind: 'self', why: "adds to the caller's list by symbol" },
  favouriteRemove: { kind: 'self', why: "removes from the caller's list by symbol" },
  favouriteDelete: { kind: 'self', why: "removes from the caller's list by symbol" },
  dealBuy: { kind: 'self', why: 'names a public symbol or block item' },
  ipoBuy: { kind: 'self', why: 'names a public IPO' },
  blockList: { kind: 'self', why: 'public block catalogue' },
  fundPurchase: { kind: 'self', why: 'names a public fund' },
  recharge: { kind: 'self', why: 'names no row' },
  loanApply: { kind: 'self', why: 'names no row' },
  passwordUp: { kind: 'self', why: "the caller's own passwords" },
  bankAdd: { kind: 'self', why: 'creates a card for the caller' },
  upload: { kind: 'self', why: 'creates an upload for the caller' },
  messageSend: { kind: 'self', why: "writes to the caller's own thread" },
  messageRead: { kind: 'self', why: "marks the caller's own thread read" },
  chatState: { kind: 'self', why: "reads the caller's own thread" },
  chatTyping: { kind: 'self', why: "marks the caller's own thread as typing" },

  favouriteCheck: {
    kind: 'own',
    read: (call, b) => call('favouriteCheck', { token: b, query: { symbol: 'AAPL' } }),
    mine: (data) => (data as { collected: boolean }).collected,
  },
  favouriteList: {
    kind: 'own',
    read: (call, b) => call('favouriteList', { token: b }),
    mine: (data) => (data as { total: number }).total > 0,
  },
  watchlistLists: {
    kind: 'own',
    read: (call, b) => call('watchlistLists', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.listId),
  },
  watchlistMembership: {
    kind: 'own',
    read: (call, b) => call('watchlistMembership', { token: b, query: { symbol: 'AAPL' } }),
    mine: (data) => (data as { ids: number[] }).ids.length > 0,
  },
  alertList: {
    kind: 'own',
    read: (call, b) => call('alertList', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.alertId),
  },
  notificationList: {
    kind: 'own',
    read: (call, b) => call('notificationList', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.notificationId),
  },
  notificationUnread: {
    kind: 'own',
    read: (call, b) => call('notificationUnread', { token: b }),
    mine: (data) => (data as { unread_count: number }).unread_count > 0,
  },
  onboarding: {
    kind: 'own',
    read: (call, b) => call('onboarding', { token: b }),
    mine: (data) => (data as { identity: number }).identity !== 0,
  },
  moneyOutcome: {
    kind: 'self',
    why: "looks up the caller's own Idempotency-Keys only (money-outcome.test.ts: another user hears not found)",
  },
  userInfo: {
    kind: 'own',
    read: (call, b) => call('userInfo', { token: b }),
    mine: (data, a) => (data as { id: number }).id === a.id,
  },
  holdings: {
    kind: 'own',
    read: (call, b) => call('holdings', { token: b, query: { type: 'stock' } }),
    mine: (data) => (data as { count: number }).count > 0,
  },
  positions: {
    kind: 'own',
    read: (call, b) => call('positions', { token: b }),
    mine: (data) => (data as { rows: unknown[] }).rows.length > 0,
  },
  portfolioSummary: {
    kind: 'own',
    read: (call, b) => call('portfolioSummary', { token: b }),
    mine: (data) => (data as { overall: { positions: number } }).overall.positions > 0,
  },
  portfolioStatement: {
    kind: 'own',
    read: (call, b) => call('portfolioStatement', { token: b }),
    mine: (data) => (data as { rows: unknown[] }).rows.length > 0,
  },
  portfolioHistory: {
    kind: 'self',
    why: "the caller's own snapshots and total only (portfolio.test.ts: another user's history is not seen)",
  },
  dealList: {
    kind: 'own',
    read: (call, b) => call('dealList', { token: b, body: { mold: 'bulk' } }),
    mine: (data) => (data as { rows: unknown[] }).rows.length > 0,
  },
  orderList: {
    kind: 'own',
    read: (call, b) => call('orderList', { token: b }),
    mine: (data, a) => has(data, a.orderNo) || has(data, a.restingNo),
  },
  ipoOrders: {
    kind: 'own',
    read: (call, b) => call('ipoOrders', { token: b }),
    mine: (data, a) => has(data, a.ipoNo),
  },
  fundCancel: {
    kind: 'foreign',
    probe: (call, b, a) => [call('fundCancel', { token: b, body: { id: a.fundOrderId }, headers: idem() })],
  },
  fundPositions: {
    kind: 'own',
    read: (call, b) => call('fundPositions', { token: b }),
    mine: (data) => (data as { rows: unknown[] }).rows.length > 0,
  },
  fundOrders: {
    kind: 'own',
    read: (call, b) => call('fundOrders', { token: b }),
    mine: (data) => (data as { rows: unknown[] }).rows.length > 0,
  },
  balance: {
    kind: 'own',
    read: (call, b) => call('balance', { token: b }),
    mine: (data) => (data as { balance: string }).balance !== '0.00',
  },
  bill: {
    kind: 'own',
    read: (call, b) => call('bill', { token: b }),
    mine: (data) => (data as { count: number }).count > 0,
  },
  rechargeRecords: {
    kind: 'own',
    read: (call, b) => call('rechargeRecords', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.rechargeId),
  },
  withdrawRecords: {
    kind: 'own',
    read: (call, b) => call('withdrawRecords', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.withdrawalId),
  },
  loanData: {
    kind: 'own',
    read: (call, b) => call('loanData', { token: b }),
    mine: (data) => (data as { amountDue: string }).amountDue !== '0.00',
  },
  loanList: {
    kind: 'own',
    read: (call, b) => call('loanList', { token: b }),
    mine: (data, a) => idIn((data as { rows: unknown[] }).rows, a.loanId),
  },
  bankList: {
    kind: 'own',
    read: (call, b) => call('bankList', { token: b }),
    mine: (data, a) => idIn(data, a.card),
  },
  kycState: {
    kind: 'own',
    read: (call, b) => call('kycState', { token: b }),
    mine: (data) => (data as { status: number }).status !== 0,
  },
  messageList: {
    kind: 'own',
    read: (call, b) => call('messageList', { token: b }),
    mine: (data) => has(data, 'message from A'),
  },
  unreadCount: {
    kind: 'own',
    read: (call, b) => call('unreadCount', { token: b }),
    mine: (data) => (data as { unread_count: number }).unread_count > 0,
  },

  bankEdit: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('bankEdit', { token: b, body: { id: a.card, ...CARD, stock_password: TRADE_CODE } }),
    ],
  },
  withdraw: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('withdraw', {
        token: b,
        body: { bank_id: a.card, count: 100, stock_password: TRADE_CODE },
        headers: idem(),
      }),
    ],
  },
  recordDetail: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('recordDetail', {
        token: b,
        query: { id: a.rechargeId, type: 'recharge' },
      }),
      call('recordDetail', {
        token: b,
        query: { id: a.withdrawalId, type: 'withdraw' },
      }),
    ],
  },
  orderQuote: { kind: 'self', why: "prices an order with the caller's own balance and shares" },
  orderContract: {
    kind: 'foreign',
    probe: (call, b, a) => [call('orderContract', { token: b, query: { no: a.orderNo } })],
  },
  orderCancel: {
    kind: 'foreign',
    probe: (call, b, a) => [call('orderCancel', { token: b, body: { no: a.restingNo }, headers: idem() })],
  },
  orderModify: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('orderModify', { token: b, body: { no: a.restingNo, count: 2 }, headers: idem() }),
    ],
  },
  dealSell: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('dealSell', { token: b, body: { no: a.orderNo }, headers: idem() }),
      call('dealSell', { token: b, body: { no: a.ipoNo }, headers: idem() }),
      call('dealSell', { token: b, body: { no: a.blockNo }, headers: idem() }),
    ],
  },
  loanRepay: {
    kind: 'foreign',
    probe: (call, b, a) => [call('loanRepay', { token: b, body: { id: a.loanId }, headers: idem() })],
  },
  watchlistRename: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistRename', { token: b, body: { id: a.listId, name: 'Mallory' } })],
  },
  watchlistReorder: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistReorder', { token: b, body: { ids: [a.listId] } })],
  },
  watchlistDelete: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistDelete', { token: b, body: { id: a.listId } })],
  },
  watchlistItems: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistItems', { token: b, query: { id: a.listId } })],
  },
  watchlistAdd: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistAdd', { token: b, body: { id: a.listId, symbol: 'MSFT' } })],
  },
  watchlistRemove: {
    kind: 'foreign',
    probe: (call, b, a) => [call('watchlistRemove', { token: b, body: { id: a.listId, symbol: 'TCS.NS' } })],
  },
  alertUpdate: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('alertUpdate', {
        token: b,
        body: { id: a.alertId, kind: 'above', value: 99_999 },
      }),
    ],
  },
  alertDelete: {
    kind: 'foreign',
    probe: (call, b, a) => [call('alertDelete', { token: b, body: { id: a.alertId } })],
  },
  notificationRead: {
    kind: 'foreign',
    probe: (call, b, a) => [call('notificationRead', { token: b, body: { id: a.notificationId } })],
  },
  securityState: {
    kind: 'own',
    read: (call, b) => call('securityState', { token: b }),
    mine: (data, a) => idIn((data as { passkeys: unknown[] }).passkeys, a.passkeyId),
  },
  passkeyOptions: { kind: 'self', why: 'a challenge for the caller, excluding their own passkeys' },
  passkeyAdd: {
    kind: 'self',
    why: 'adds a credential to the caller (one held by anyone is refused: two-factor.test.ts)',
  },
  passkeyRename: {
    kind: 'foreign',
    probe: (call, b, a) => [call('passkeyRename', { token: b, body: { id: a.passkeyId, name: 'Mallory' } })],
  },
  passkeyRemove: {
    kind: 'foreign',
    probe: (call, b, a) => [call('passkeyRemove', { token: b, body: { id: a.passkeyId, code: '123456' } })],
  },
  totpSetup: { kind: 'self', why: "the caller's own authenticator app" },
  totpConfirm: { kind: 'self', why: "the caller's own authenticator app" },
  totpRemove: { kind: 'self', why: "the caller's own authenticator app" },
  recoveryRenew: { kind: 'self', why: "the caller's own recovery codes" },
  factorChallenge: { kind: 'self', why: "a challenge for the caller's own passkeys" },
  stepUp: { kind: 'self', why: "marks the caller's own session after a proof of their own factor" },
  securityChanges: { kind: 'self', why: "the caller's own account's changes, for the caller's device" },
  securityChangesSeen: { kind: 'self', why: "acknowledges on the caller's own device" },
  secondFactor: { kind: 'self', why: "the second step of the caller's own sign-in" },
  unlock: { kind: 'self', why: "the caller's own password or passkey" },
  pushSettings: {
    kind: 'own',
    read: (call, b) => call('pushSettings', { token: b }),
    mine: (data, a) => idIn((data as { devices: unknown[] }).devices, a.pushDeviceId),
  },
  pushSubscribe: {
    kind: 'self',
    why: "subscribes the caller's own device; an endpoint is its browser's secret (push.test.ts moves one between users)",
  },
  pushUnsubscribe: {
    kind: 'foreign',
    probe: (call, b, a) => [call('pushUnsubscribe', { token: b, body: { id: a.pushDeviceId } })],
  },
  pushPrefs: { kind: 'self', why: "the caller's own preferences" },
  pushKey: { kind: 'self', why: "public: the server's VAPID public key" },
  pushResubscribe: {
    kind: 'self',
    why: 'no session: the old endpoint, a secret of its browser, is the proof (push.test.ts)',
  },
  kycSubmit: {
    kind: 'foreign',
    probe: (call, b, a) => [
      call('kycSubmit', {
        token: b,
        body: {
          real_name: 'Mallory',
          id_type: 'passport',
          id_number: 'Z1234567',
          id_number_img: a.uploadUrl,
          id_number_img_two: a.uploadUrl,
        },
      }),
    ],
  },
};

describe('ownership matrix coverage', () => {
  it('has an entry for every endpoint of the contract, and only for those', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(Object.keys(contract).sort());
    for (const [name, entry] of Object.entries(MATRIX)) {
      const ep = contract[name as EndpointName];
      // Public endpoints hold nobody's rows; every endpoint with a session is probed.
      if (!ep.auth) expect(entry.kind, name).toBe('self');
    }
  });
});

describe.each(DIALECTS)('ownership on $name', ({ name, enabled }) => {
  let s: TestServer;
  let a: Owner;
  let b: { token: string; id: number };
  /** A's rows as stored, to prove B's probes changed nothing. */
  let snapshot: () => Promise<unknown>;

  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    const control = controlMarket(s);
    control.pin('RELIANCE.NS', 2500);
    const u = await s.signUp();
    await credit(s, u.id, 100_000_000);
    const card = await addCard(s, u.token);
    const recharge = await s.call('recharge', {
      token: u.token,
      body: { count: 5000 },
      headers: idem(),
    });
    const withdrawal = await s.call('withdraw', {
      token: u.token,
      body: { bank_id: card, count: 200, stock_password: TRADE_CODE },
      headers: idem(),
    });
    const order = await s.call('dealBuy', {
      token: u.token,
      body: { tag: 'RELIANCE.NS', count: 3, price: 2500, mold: 'stock' },
      headers: idem(),
    });
    const resting = await s.call('dealBuy', {
      token: u.token,
      body: { tag: 'RELIANCE.NS', count: 1, price: 2375, mold: 'stock' },
      headers: idem(),
    });
    const ipo = await insertIpo(s);
    const application = await s.call('ipoBuy', {
      token: u.token,
      body: { id: ipo.id, tag: ipo.symbol, count: 100, price: 120.5 },
      headers: idem(),
    });
    const fundRow = await s.deps.database.db
      .selectFrom('funds')
      .select('id')
      .where('status', '=', 1)
      .executeTakeFirstOrThrow();
    const fund = await s.call('fundPurchase', {
      token: u.token,
      body: { project_id: fundRow.id },
      headers: idem(),
    });
    const blockId = await insertBlockItem(s, { tag: 'RELIANCE.NS', price: 2400, count: 100 });
    // The lot's price is the server's, inside the block window of the market.
    const offered = (
      await s.call('blockList', { token: u.token, body: { mold: 'bulk' } })
    ).body.data.rows.find((r: { id: number }) => r.id === blockId);
    const block = await s.call('dealBuy', {
      token: u.token,
      body: {
        tag: 'RELIANCE.NS',
        count: 100,
        price: offered.price,
        mold: 'bulk',
        id: blockId,
        stock_password: await setTradePassword(s, u.id),
      },
      headers: idem(),
    });
    expect(block.body, 'the block lot A buys').toMatchObject({ msg: 'ok' });
    const loan = await s.call('loanApply', {
      token: u.token,
      body: { count: 1000 },
      headers: idem(),
    });
    await withTx(s.deps.database, (trx) => disburseLoan(trx, loan.body.data.id, s.clock.now()));
    const image = await upload(s, u.token);
    const uploaded = image.body.data as { id: string; url: string };
    const kyc = await s.call('kycSubmit', {
      token: u.token,
      body: {
        real_name: 'Asha Rao',
        id_type: 'passport',
        id_number: 'A1234567',
        id_number_img: uploaded.url,
        id_number_img_two: uploaded.url,
      },
    });
    const message = await s.call('messageSend', {
      token: u.token,
      body: { message: 'message from A' },
    });
    const favourite = await s.call('favouriteAdd', {
      token: u.token,
      body: { symbol: 'AAPL' },
    });
    const list = await s.call('watchlistCreate', {
      token: u.token,
      body: { name: 'A list' },
    });
    const item = await s.call('watchlistAdd', {
      token: u.token,
      body: { id: list.body.data.id, symbol: 'TCS.NS' },
    });
    // Two alerts on the pinned price: one fires into A's inbox, one stays active for the probes.
    const fires = await s.call('alertCreate', {
      token: u.token,
      body: { symbol: 'RELIANCE.NS', kind: 'above', value: 2510 },
    });
    const alert = await s.call('alertCreate', {
      token: u.token,
      body: { symbol: 'RELIANCE.NS', kind: 'below', value: 2000 },
    });
    control.pin('RELIANCE.NS', 2520);
    expect(await evaluateAlerts(s.deps)).toBe(1);
    const inbox = await s.call('notificationList', { token: u.token });
    const device = newDevice('https://fcm.googleapis.com/fcm/send/owner-a');
    const push = await s.call('pushSubscribe', {
      token: u.token,
      body: { endpoint: device.endpoint, keys: device.keys, device: 'A phone', lang: 'en' },
    });
    expect(push.body.msg, JSON.stringify(push.body)).toBe('ok');
    for (const r of [list, item, fires, alert, inbox]) expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    await s.deps.database.db
      .insertInto('messages')
      .values({
        user_id: u.id,
        sender: 'agent',
        body: 'reply to A',
        client_id: null,
        read_at: null,
        created_at: s.clock.now(),
      })
      .execute();
    for (const r of [
      recharge,
      withdrawal,
      order,
      resting,
      application,
      fund,
      loan,
      kyc,
      message,
      favourite,
    ]) {
      expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    }
    expect(resting.body.data.status).toBe(0);
    a = {
      token: u.token,
      id: u.id,
      card,
      rechargeId: recharge.body.data.id,
      withdrawalId: withdrawal.body.data.id,
      orderNo: order.body.data.no,
      restingNo: resting.body.data.no,
      ipoNo: application.body.data.no,
      fundOrderId: fund.body.data.id,
      blockNo: block.body.data.no,
      loanId: loan.body.data.id,
      uploadId: uploaded.id,
      uploadUrl: uploaded.url,
      favourite: 'AAPL',
      listId: list.body.data.id,
      alertId: alert.body.data.id,
      notificationId: inbox.body.data.rows[0].id,
      pushDeviceId: push.body.data.id,
      passkeyId: await enrolPasskey(s, u.token),
    };
    b = await s.signUp();
    // B has a card of its own, so a refused withdrawal is about A's card, not about having none.
    await addCard(s, b.token);
    const db = s.deps.database.db;
    snapshot = async () => ({
      user: await db.selectFrom('users').select('balance').where('id', '=', a.id).executeTakeFirst(),
      cards: await db.selectFrom('bank_cards').selectAll().where('user_id', '=', a.id).execute(),
      orders: await db
        .selectFrom('orders')
        .select(['id', 'status', 'closed_at'])
        .where('user_id', '=', a.id)
        .orderBy('id')
        .execute(),
      withdrawals: await db
        .selectFrom('withdrawals')
        .select(['id', 'status'])
        .where('user_id', '=', a.id)
        .execute(),
      loans: await db.selectFrom('loans').select(['id', 'status']).where('user_id', '=', a.id).execute(),
      funds: await db
        .selectFrom('fund_orders')
        .select(['id', 'status'])
        .where('user_id', '=', a.id)
        .orderBy('id')
        .execute(),
      kyc: await db.selectFrom('kyc').selectAll().execute(),
      ledger: await db.selectFrom('ledger').select('id').where('user_id', '=', a.id).execute(),
      watchlists: await db.selectFrom('watchlists').selectAll().where('user_id', '=', a.id).execute(),
      items: await db
        .selectFrom('watchlist_items')
        .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
        .select(['list_id', 'symbol'])
        .where('watchlists.user_id', '=', a.id)
        .orderBy('symbol')
        .execute(),
      alerts: await db.selectFrom('alerts').selectAll().where('user_id', '=', a.id).execute(),
      notifications: await db.selectFrom('notifications').selectAll().where('user_id', '=', a.id).execute(),
      push: await db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', a.id).execute(),
      passkeys: await db
        .selectFrom('factor_passkeys')
        .selectAll()
        .where('owner', '=', `user:${a.id}`)
        .execute(),
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  const entries = Object.entries(MATRIX) as [EndpointName, Entry][];

  it.runIf(enabled).each(entries.filter(([, e]) => e.kind === 'foreign'))(
    "%s: user B naming user A's rows gets not-found and changes nothing",
    async (_, entry) => {
      if (entry.kind !== 'foreign') return;
      const before = await snapshot();
      for (const res of await Promise.all(entry.probe(s.call, b.token, a))) {
        expect(res.status, JSON.stringify(res.body)).toBe(404);
        expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.runIf(enabled).each(entries.filter(([, e]) => e.kind === 'own'))(
    "%s: user B's answer holds nothing of user A's (and A's does)",
    async (_, entry) => {
      if (entry.kind !== 'own') return;
      const mine = await entry.read(s.call, a.token);
      expect(mine.body.msg).toBe('ok');
      // The probe sees A's rows in A's answer, so its silence for B means something.
      expect(entry.mine(mine.body.data, a), JSON.stringify(mine.body.data)).toBe(true);
      const theirs = await entry.read(s.call, b.token);
      expect(theirs.body.msg).toBe('ok');
      expect(entry.mine(theirs.body.data, a), JSON.stringify(theirs.body.data)).toBe(false);
    },
  );

  it.runIf(enabled)("user B cannot read user A's uploaded image", async () => {
    const url = uploadReadPath(a.uploadId);
    const own = await s.app.inject({
      method: 'GET',
      url: `${s.config.apiBase}${url}`,
      headers: { token: a.token },
    });
    expect(own.statusCode).toBe(200);
    const res = await s.api('GET', url, { token: b.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
    const visitor = await s.api('GET', url);
    expect(visitor.status).toBe(401);
    expect(visitor.body.msg).toBe('logout');
  });

  it.runIf(enabled)(
    'a visitor without a session gets the logout answer from every endpoint that needs one',
    async () => {
      const guarded = Object.values(contract).filter((ep) => ep.auth);
      expect(guarded.length).toBeGreaterThan(30);
      for (const ep of guarded) {
        // A request the schema accepts, so what refuses it is the missing or unknown session.
        const input = validRequest(ep);
        for (const token of [undefined, 'not-a-real-token']) {
          const res = await s.api(ep.method, ep.path, {
            ...(ep.method === 'GET' ? { query: input as Record<string, string> } : { body: input }),
            ...(token ? { token } : {}),
            headers: ep.money ? idem() : {},
          });
          expect(res.status, `${ep.path} ${JSON.stringify(res.body)}`).toBe(401);
          expect(res.body).toEqual({
            msg: 'logout',
            data: token ? 'errors.authKeyIncorrect' : 'errors.sessionExpired',
          });
        }
      }
    },
  );
});
