import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_CARDS_PER_USER } from '../../server/account/bank-cards';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { addCard, ensureTradeCode, fund, TRADE_CODE } from '../support/wallet';

const CARD = {
  bank: 'ICICI Bank',
  branch_bank: 'Koramangala, Bengaluru',
  bank_card: '0012 3456 7890 12',
  bank_user: 'Ravi Kumar',
  ifsc: 'icic0001234',
};

describe.each(DIALECTS)('settings: bank cards on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { LOGIN_LIMIT_PHONE: '3', LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  describe.skipIf(!enabled)('bank cards', () => {
    /** A user with a transaction password: adding or editing a card needs it. */
    const member = async () => {
      const u = await s.signUp();
      await ensureTradeCode(s, u.token);
      return u;
    };
    const CODE = { stock_password: TRADE_CODE };
    it('adds a card with the number masked in answers and lists only the caller’s', async () => {
      const a = await member();
      const b = await member();
      const res = await s.call('bankAdd', { token: a.token, body: { ...CARD, ...CODE } });
      expect(res.body).toMatchObject({
        msg: 'ok',
        data: { ...CARD, bank_card: '**********9012', ifsc: 'ICIC0001234', status: 1 },
      });
      const stored = await s.deps.database.db
        .selectFrom('bank_cards')
        .select(['bank_card', 'ifsc'])
        .where('id', '=', res.body.data.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ bank_card: '00123456789012', ifsc: 'ICIC0001234' });
      const listA = await s.call('bankList', { token: a.token });
      expect(listA.body.data).toEqual([res.body.data]);
      expect((await s.call('bankList', { token: b.token })).body.data).toEqual([]);
    });

    it.each([
      ['an IFSC without the zero', { ifsc: 'ICIC1001234' }, 'errors.ifscInvalid'],
      ['an IFSC of the wrong length', { ifsc: 'ICIC000123' }, 'errors.ifscInvalid'],
      ['letters in the card number', { bank_card: '1234ABCD5678' }, 'errors.bankCardInvalid'],
      ['a card number of 7 digits', { bank_card: '1234567' }, 'errors.bankCardInvalid'],
      ['a blank bank name', { bank: '   ' }, 'hint.requiredFields'],
      ['a blank holder', { bank_user: ' ' }, 'hint.requiredFields'],
      ['an empty branch', { branch_bank: '' }, 'errors.invalidInput'],
      ['an unknown field', { status: 1 }, 'errors.invalidInput'],
      ['a number for the card', { bank_card: 12345678901 }, 'errors.invalidInput'],
    ])('rejects %s and stores nothing', async (_label, change, key) => {
      const { token, id } = await member();
      const res = await s.call('bankAdd', { token, body: { ...CARD, ...change, ...CODE } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: key });
      const rows = await s.deps.database.db
        .selectFrom('bank_cards')
        .select('id')
        .where('user_id', '=', id)
        .execute();
      expect(rows).toEqual([]);
    });

    it('accepts a SWIFT code when the account currency is not INR', async () => {
      const { token } = await member();
      const { db } = s.deps.database;
      await db.updateTable('config').set({ value: 'MXN' }).where('tag', '=', 'currency_unit').execute();
      try {
        const swift = await s.call('bankAdd', { token, body: { ...CARD, ifsc: 'BNMXMXMM', ...CODE } });
        expect(swift.body.msg).toBe('ok');
        const junk = await s.call('bankAdd', {
          token,
          body: { ...CARD, bank_card: '99887766554433', ifsc: 'X123', ...CODE },
        });
        expect(junk.body.data).toBe('errors.ifscInvalid');
      } finally {
        await db.updateTable('config').set({ value: 'INR' }).where('tag', '=', 'currency_unit').execute();
      }
    });

    it('refuses the same card twice and more than the per-user limit', async () => {
      const { token } = await member();
      expect((await s.call('bankAdd', { token, body: { ...CARD, ...CODE } })).body.msg).toBe('ok');
      const dup = await s.call('bankAdd', { token, body: { ...CARD, bank_card: '00123456789012', ...CODE } });
      expect(dup.status).toBe(409);
      expect(dup.body.data).toBe('errors.bankCardExists');
      for (let i = 1; i < BANK_CARDS_PER_USER; i++) await addCard(s, token);
      const over = await s.call('bankAdd', {
        token,
        body: { ...CARD, bank_card: '77777777777777', ...CODE },
      });
      expect(over.body.data).toBe('errors.bankCardLimit');
    });

    it('edits only the caller’s card, and not while a withdrawal to it is on its way', async () => {
      const a = await member();
      const b = await member();
      const added = await s.call('bankAdd', { token: a.token, body: { ...CARD, ...CODE } });
      const cardId = added.body.data.id;
      const edit = { ...CARD, ...CODE, id: cardId, bank_user: 'Ravi K. Kumar', ifsc: 'ICIC0009999' };
      const stolen = await s.call('bankEdit', { token: b.token, body: edit });
      expect(stolen.status).toBe(404);
      expect(stolen.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      const own = await s.call('bankEdit', { token: a.token, body: edit });
      expect(own.body.data).toMatchObject({ id: cardId, bank_user: 'Ravi K. Kumar', ifsc: 'ICIC0009999' });

      await fund(s, a.token, 5000);
      const w = await s.call('withdraw', {
        token: a.token,
        body: { bank_id: cardId, count: 500, stock_password: TRADE_CODE },
      });
      expect(w.body.msg).toBe('ok');
      const busy = await s.call('bankEdit', { token: a.token, body: { ...edit, bank: 'Other Bank' } });
      expect(busy.status).toBe(409);
      expect(busy.body.data).toBe('errors.bankCardInUse');
      const invalid = await s.call('bankEdit', { token: a.token, body: { ...edit, ifsc: 'nope' } });
      expect(invalid.body.data).toBe('errors.ifscInvalid');
    });
  });
});
