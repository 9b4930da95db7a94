import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor, unitsToMinor } from '#shared/money';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  ledgerOf,
  NO_CHARGES_ENV,
} from '../support/trading';
import { addCard, TRADE_CODE } from '../support/wallet';

/**
 * DESIGN rule 2 under load: 200 money calls at once against one balance never overdraw it, and an
 * Idempotency-Key sent 20 times at once moves money once. On PostgreSQL the calls really run in
 * parallel (a pool of 10 connections); on SQLite they interleave at every await.
 */

const PRICE = 2500;
const ONE_SHARE = unitsToMinor(PRICE);

describe.each(DIALECTS)('concurrency on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    // Whole shares of balance without charges (tests/server/charges covers them). Withdrawals
    // carry the transaction password: its lock (lockouts.test.ts) counts a code in flight until
    // checked, and the hash queue answers 429 beyond its length. Both are raised so this suite
    // measures the ledger under 200 calls at once, not those limits — nor the pool's 5 s wait for a
    // connection, which 200 calls on ten connections passed on a loaded machine (73 answered 503).
    s = await startTestServer(name, {
      ...NO_CHARGES_ENV,
      FUND_PASSWORD_LIMIT: '1000',
      HASH_QUEUE: '1000',
      PG_CONNECT_TIMEOUT_MS: '120000',
    });
    controlMarket(s).pin('RELIANCE.NS', PRICE);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  const buy = (token: string, count = 1, headers = idem()) =>
    s.call('dealBuy', {
      token,
      body: { tag: 'RELIANCE.NS', count, price: PRICE, mold: 'stock' },
      headers,
    });
  const withdraw = (token: string, card: number, units: number, headers = idem()) =>
    s.call('withdraw', { token, body: { bank_id: card, count: units, stock_password: TRADE_CODE }, headers });

  /** Every answer is an ok or an insufficient-funds refusal: nothing else, never a 500. */
  function tally(answers: { status: number; body: { msg: string; data: unknown } }[]) {
    const ok = answers.filter((a) => a.body.msg === 'ok').length;
    const refused = answers.filter(
      (a) => a.status === 422 && a.body.msg === 'no' && a.body.data === 'errors.insufficientFunds',
    ).length;
    expect(
      ok + refused,
      JSON.stringify(answers.find((a) => a.body.msg !== 'ok' && a.status !== 422)?.body),
    ).toBe(answers.length);
    return ok;
  }

  it.runIf(enabled)('200 simultaneous buys against a balance for 37 fill exactly 37', async () => {
    const u = await s.signUp();
    await credit(s, u.id, 37 * ONE_SHARE + 99);
    const answers = await Promise.all(Array.from({ length: 200 }, () => buy(u.token)));
    expect(tally(answers)).toBe(37);
    expect(await balanceOf(s, u.id)).toBe(99);
    const orders = await s.deps.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(Number(orders.n)).toBe(37);
  });

  it.runIf(enabled)('200 simultaneous withdrawals against a balance for 23 reserve exactly 23', async () => {
    const u = await s.signUp();
    const card = await addCard(s, u.token);
    await credit(s, u.id, unitsToMinor(23 * 150 + 149));
    const answers = await Promise.all(Array.from({ length: 200 }, () => withdraw(u.token, card, 150)));
    expect(tally(answers)).toBe(23);
    expect(await balanceOf(s, u.id)).toBe(unitsToMinor(149));
  });

  it.runIf(enabled)('100 buys and 100 withdrawals at once never spend more than the balance', async () => {
    const u = await s.signUp();
    const card = await addCard(s, u.token);
    const start = 20 * ONE_SHARE;
    await credit(s, u.id, start);
    const calls = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? buy(u.token) : withdraw(u.token, card, 1000),
    );
    const answers = await Promise.all(calls);
    tally(answers);
    const spent = answers.reduce(
      (sum, a, i) => (a.body.msg !== 'ok' ? sum : sum + (i % 2 === 0 ? ONE_SHARE : unitsToMinor(1000))),
      0,
    );
    const left = await balanceOf(s, u.id);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(start - spent);
    // Nothing that fits is refused: what is left is less than the cheaper of the two calls.
    expect(left).toBeLessThan(unitsToMinor(1000));
  });

  it.runIf(enabled)(
    'the same Idempotency-Key sent 20 times at once buys once and answers the same',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, 100 * ONE_SHARE);
      const key = idem();
      const answers = await Promise.all(Array.from({ length: 20 }, () => buy(u.token, 3, key)));
      for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
      expect(answers[0]!.body.msg).toBe('ok');
      expect(answers.filter((a) => a.headers['idempotent-replay'] === 'true')).toHaveLength(19);
      expect(await balanceOf(s, u.id)).toBe(97 * ONE_SHARE);
      expect((await ledgerOf(s, u.id)).filter((p) => p.reason === 'buyStock')).toHaveLength(1);
    },
  );

  it.runIf(enabled)('the same key sent 20 times at once withdraws once', async () => {
    const u = await s.signUp();
    const card = await addCard(s, u.token);
    await credit(s, u.id, unitsToMinor(10_000));
    const key = idem();
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(u.token, card, 700, key)));
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body.data.count).toBe(fromMinor(unitsToMinor(700)));
    expect(await balanceOf(s, u.id)).toBe(unitsToMinor(9_300));
    const rows = await s.deps.database.db
      .selectFrom('withdrawals')
      .select('id')
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it.runIf(enabled)('the same key with another body is rejected, even when both race', async () => {
    const u = await s.signUp();
    await credit(s, u.id, 100 * ONE_SHARE);
    const key = idem();
    const first = await buy(u.token, 2, key);
    expect(first.body.msg).toBe('ok');
    const other = await buy(u.token, 5, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });

    // Ten of each body on one fresh key: one body wins, the other is refused, money moves once.
    const raced = idem();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => buy(u.token, i % 2 === 0 ? 1 : 4, raced)),
    );
    const ok = answers.filter((a) => a.body.msg === 'ok');
    const mismatched = answers.filter((a) => a.body.data === 'errors.idempotencyMismatch');
    expect(ok.length + mismatched.length).toBe(20);
    expect(ok.length).toBe(10);
    const winner = ok[0]!.body.data.count as number;
    for (const a of ok) expect(a.body.data.count).toBe(winner);
    expect(await balanceOf(s, u.id)).toBe((100 - 2 - winner) * ONE_SHARE);
  });
});
