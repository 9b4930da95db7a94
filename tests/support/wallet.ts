import { expect } from 'vitest';
import { runJob } from '../../server/jobs/index';
import { settleRecharges, settleWithdrawals } from '../../server/wallet/jobs';
import type { TestServer } from './server';

/** Helpers for the wallet suites: money in through the real recharge flow, multipart bodies. */

/** Recharges `units` and lets the sandbox settle it, as a user's deposit would. */
export async function fund(s: TestServer, token: string, units: number): Promise<void> {
  const res = await s.call('recharge', { token, body: { count: units } });
  if (res.body.msg !== 'ok') throw new Error(`recharge failed: ${JSON.stringify(res.body)}`);
  await settleDue(s);
}

/** Moves the clock past the sandbox delay and runs both settlement jobs. */
export async function settleDue(s: TestServer): Promise<void> {
  s.clock.advance(s.config.sandboxSettleMs + 1);
  await runJob(s.deps, settleRecharges);
  await runJob(s.deps, settleWithdrawals);
}

export async function balanceOf(s: TestServer, token: string): Promise<string> {
  const res = await s.call('balance', { token });
  return res.body.data.balance as string;
}

/** The transaction password the wallet helpers give a user (withdrawals and cards need one). */
export const TRADE_CODE = '246810';

/** Sets TRADE_CODE as the user's transaction password unless one is already set. */
export async function ensureTradeCode(s: TestServer, token: string): Promise<void> {
  const res = await s.call('passwordUp', {
    token,
    body: { type: 'transaction', is_first: true, fund_code_new: TRADE_CODE },
  });
  if (res.body.msg !== 'ok' && res.body.data !== 'errors.fundPasswordAlreadySet')
    throw new Error(`set transaction password failed: ${JSON.stringify(res.body)}`);
}

/**
 * Makes a card look added (or last changed) `ms` ago: payouts to a card changed within
 * `newCardHoldMs` wait for the operator, which suites about ordinary payouts do not want.
 */
export async function ageCard(s: TestServer, card: number, ms = s.config.newCardHoldMs): Promise<void> {
  await s.deps.database.db
    .updateTable('bank_cards')
    .set((eb) => ({ created_at: eb('created_at', '-', ms), updated_at: eb('updated_at', '-', ms) }))
    .where('id', '=', card)
    .execute();
}

let cardSeq = 0;
/**
 * Adds a valid card with the transaction password (TRADE_CODE, set first if the user has none);
 * `number` picks the card number (the sandbox declines numbers ending 0002). The card is made a
 * day old, so withdrawals to it go to the payment rail; `{ fresh: true }` keeps it new (held).
 */
export async function addCard(
  s: TestServer,
  token: string,
  number?: string,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<number> {
  cardSeq += 1;
  await ensureTradeCode(s, token);
  const res = await s.call('bankAdd', {
    token,
    body: {
      bank: 'HDFC Bank',
      branch_bank: 'Andheri East',
      // Ends in 1: never the sandbox's decline suffix (0002), which the sequence alone reached on
      // the second card of a test file (the ledger property's first user then saw a payout declined).
      bank_card: number ?? `5012${String(Date.now()).slice(-6)}${String(cardSeq).padStart(4, '0')}1`,
      bank_user: 'Asha Rao',
      ifsc: 'HDFC0000123',
      stock_password: TRADE_CODE,
    },
  });
  if (res.body.msg !== 'ok') throw new Error(`add card failed: ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as number;
  if (!fresh) await ageCard(s, id);
  return id;
}

export function multipartBody(
  bytes: Buffer,
  { field = 'file', filename = 'photo.png', type = 'image/png' } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bourse${Math.random().toString(16).slice(2)}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A real 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export async function upload(
  s: TestServer,
  token: string,
  bytes: Buffer = PNG,
  options?: Parameters<typeof multipartBody>[1],
): Promise<{ status: number; body: { msg: string; data: { url: string; id: string } | string } }> {
  const { payload, headers } = multipartBody(bytes, options);
  const res = await s.app.inject({
    method: 'POST',
    url: `${s.config.apiBase}/stock/success/upload`,
    headers: { ...headers, token },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

/** How many rows of a wallet table belong to a user. */
export async function rowCount(
  s: TestServer,
  table: 'recharges' | 'withdrawals' | 'loans' | 'ledger',
  userId: number,
): Promise<number> {
  const row = await s.deps.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ledger invariant for one user: their postings add up to their balance. */
export async function expectBalanceIsLedger(s: TestServer, userId: number): Promise<void> {
  const { db } = s.deps.database;
  const sum = await db
    .selectFrom('ledger')
    .select((eb) => eb.fn.sum<number | string>('amount').as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  expect(Number(sum.total ?? 0)).toBe(user.balance);
}
