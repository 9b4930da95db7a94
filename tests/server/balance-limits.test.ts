import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../server/db/index';
import { BALANCE_CEILING_MINOR, post } from '../../server/lib/ledger';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { balanceOf, credit, expectLedgerConsistent, idem } from '../support/trading';
import { settleDue } from '../support/wallet';

/**
 * Hole 9: balances had no bound, so minor units could approach 2^53 where integers stop
 * being exact. A recharge is at most MAX_RECHARGE, the balance with recharges on their way at most
 * MAX_BALANCE, and no posting ever credits past a hard ceiling of 10^15 minor units.
 */

describe.each(DIALECTS)('balance limits on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { MAX_RECHARGE: '50000.00', MAX_BALANCE: '100000.00' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  const recharge = (token: string, count: number) =>
    s.call('recharge', { token, headers: idem(), body: { count } });
  const recharges = async (userId: number) =>
    s.deps.database.db.selectFrom('recharges').select('amount').where('user_id', '=', userId).execute();

  it.runIf(enabled)('a recharge over MAX_RECHARGE is refused and records nothing', async () => {
    const u = await s.signUp();
    const res = await recharge(u.token, 50_001);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: 'no', data: 'errors.rechargeMax', params: { max: '50000.00' } });
    expect(await recharges(u.id)).toEqual([]);
  });

  it.runIf(enabled)('the balance with recharges on their way stays within MAX_BALANCE', async () => {
    const u = await s.signUp();
    expect((await recharge(u.token, 50_000)).body.msg).toBe('ok');
    expect((await recharge(u.token, 40_000)).body.msg).toBe('ok');
    const over = await recharge(u.token, 10_001);
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ msg: 'no', data: 'errors.balanceMax', params: { max: '100000.00' } });
    await settleDue(s);
    expect(await balanceOf(s, u.id)).toBe(9_000_000);
    expect((await recharge(u.token, 10_001)).body.data).toBe('errors.balanceMax');
    expect((await recharge(u.token, 10_000)).body.msg).toBe('ok');
  });

  it.runIf(enabled)('simultaneous recharges cannot each fit alone past the maximum', async () => {
    const u = await s.signUp();
    const answers = await Promise.all(Array.from({ length: 6 }, () => recharge(u.token, 40_000)));
    expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(2);
    expect(answers.filter((a) => a.body.data === 'errors.balanceMax')).toHaveLength(4);
    expect((await recharges(u.id)).reduce((n, r) => n + Number(r.amount), 0)).toBe(8_000_000);
  });

  it.runIf(enabled)('no posting credits past the hard ceiling, far below 2^53', async () => {
    expect(BALANCE_CEILING_MINOR * 8).toBeLessThan(2 ** 53);
    const u = await s.signUp();
    await credit(s, u.id, BALANCE_CEILING_MINOR - 100);
    await expect(
      withTx(s.deps.database, (trx) =>
        post(trx, { userId: u.id, amount: 101, reason: 'recharge', refType: 'test', at: s.clock.now() }),
      ),
    ).rejects.toMatchObject({ key: 'errors.balanceMax' });
    expect(await balanceOf(s, u.id)).toBe(BALANCE_CEILING_MINOR - 100);
    await credit(s, u.id, 100);
    expect(await balanceOf(s, u.id)).toBe(BALANCE_CEILING_MINOR);
  });
});
