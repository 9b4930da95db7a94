import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { DIALECTS, type TestServer } from '../support/server';
import { auditedServer, credit, idem, insertFund, insertIpo } from '../support/trading';

/** Marks a user's real-name verification with `status` (1 under review, 2 approved, 3 rejected). */
async function setKyc(s: TestServer, userId: number, status: number): Promise<void> {
  const now = s.clock.now();
  await s.deps.database.db
    .insertInto('kyc')
    .values({
      user_id: userId,
      real_name: 'Asha Rao',
      id_type: 'idCard',
      id_number: '123412341234',
      id_number_img: 'a',
      id_number_img_two: 'b',
      status,
      note: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ status }))
    .execute();
}

const REFUSED = { msg: 'no', data: 'errors.kycRequired' };

describe('REQUIRE_KYC configuration', () => {
  it('is on in production and off in the demo unless set', () => {
    expect(loadConfig({}).requireKyc).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).requireKyc).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', REQUIRE_KYC: '0' }).requireKyc).toBe(false);
    expect(loadConfig({ REQUIRE_KYC: '1' }).requireKyc).toBe(true);
  });
});

describe.each(DIALECTS)('REQUIRE_KYC on $name', ({ name, enabled }) => {
  const s = auditedServer(name, enabled, { REQUIRE_KYC: '1' });

  describe.skipIf(!enabled)('identity before money', () => {
    it('refuses recharges, loans and every kind of buy until the verification is approved', async () => {
      const u = await s.signUp();
      await credit(s, u.id, 10_000_000);
      const ipo = await insertIpo(s, { issue_price: 100 });
      const fund = await insertFund(s, {});
      const attempts = () => [
        s.call('recharge', { token: u.token, body: { count: 5000, method: 'bank' }, headers: idem() }),
        s.call('loanApply', { token: u.token, body: { count: 600 }, headers: idem() }),
        s.call('dealBuy', {
          token: u.token,
          body: { mold: 'stock', tag: 'RELIANCE.NS', count: 1, price: 2510 },
          headers: idem(),
        }),
        s.call('ipoBuy', {
          token: u.token,
          body: { id: ipo.id, tag: ipo.symbol, count: 100, price: 100 },
          headers: idem(),
        }),
        s.call('fundPurchase', { token: u.token, body: { project_id: fund }, headers: idem() }),
      ];
      // No verification, one under review, one rejected: each refused, nothing written.
      for (const status of [null, 1, 3]) {
        if (status !== null) await setKyc(s, u.id, status);
        for (const res of await Promise.all(attempts())) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(REFUSED);
        }
      }
      const balance = await s.call('balance', { token: u.token });
      expect(balance.body.data.balance).toBe('100000.00');
      for (const table of ['recharges', 'loans', 'orders', 'fund_orders'] as const) {
        const rows = await s.deps.database.db
          .selectFrom(table)
          .select('id')
          .where('user_id', '=', u.id)
          .execute();
        expect(rows, table).toEqual([]);
      }

      await setKyc(s, u.id, 2);
      const answers = await Promise.all(attempts());
      // Recharge, loan, stock buy, IPO application (at the issue price of 100.00), fund purchase.
      expect(answers.map((a) => a.body.msg)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    });

    it('never traps money: an unverified account still sells, cancels and withdraws', async () => {
      const u = await s.signUp();
      const sell = await s.call('dealSell', {
        token: u.token,
        body: { mold: 'stock', tag: 'RELIANCE.NS', count: 1, price: 2510 },
        headers: idem(),
      });
      expect(sell.body.data).not.toBe('errors.kycRequired');
      const withdraw = await s.call('withdraw', {
        token: u.token,
        body: { bank_id: 1, count: 500, stock_password: '123456' },
        headers: idem(),
      });
      expect(withdraw.body.data).not.toBe('errors.kycRequired');
    });

    it('answers bad input with 400 before the identity check, never 500', async () => {
      const u = await s.signUp();
      for (const body of [
        { count: 'x', method: 'bank' },
        { count: 5000, method: 'card' },
        { count: -1, method: 'bank' },
        [],
      ]) {
        const res = await s.call('recharge', { token: u.token, body, headers: idem() });
        expect(res.status).toBe(400);
      }
      const res = await s.call('dealBuy', {
        token: u.token,
        body: { mold: 'stock', tag: '', count: 0 },
        headers: idem(),
      });
      expect(res.status).toBe(400);
    });

    it('seeds the demo account verified, so its checklist tells the truth', async () => {
      const demo = s.config.demo!;
      const login = await s.call('login', { body: { user: demo.phone, password: demo.password } });
      const token = login.body.data.token as string;
      const steps = await s.call('onboarding', { token });
      expect(steps.body.data).toMatchObject({ identity: 2, funded: true });
      const recharge = await s.call('recharge', {
        token,
        body: { count: 5000, method: 'bank' },
        headers: idem(),
      });
      expect(recharge.body.msg).toBe('ok');
    });
  });
});
