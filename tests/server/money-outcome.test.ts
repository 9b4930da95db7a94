import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/server';
import { auditedServer, balanceOf, credit, ledgerOf } from '../support/trading';

/**
 * moneyOutcome: after a lost answer the app asks what became of an Idempotency-Key. The owner
 * hears the stored answer (a fill, or a rejection with its reason) or "not found"; nobody else
 * learns anything about another user's key. Asking never moves money.
 */

describe.each(DIALECTS)('money outcome on $name', ({ name, enabled }) => {
  const s = auditedServer(name, enabled);

  const outcome = (token: string, key: string) => s.call('moneyOutcome', { token, query: { key } });
  const buy = (token: string, key: string, count = 1) =>
    s.call('dealBuy', {
      token,
      headers: { 'idempotency-key': key },
      body: { tag: 'RELIANCE.NS', count, price: 2412.37, mold: 'stock' },
    });

  describe.skipIf(!enabled)('lookup', () => {
    it('answers "not found" for a key the server never received', async () => {
      const u = await s.signUp();
      const res = await outcome(u.token, 'never-sent-0001');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ msg: 'ok', data: { found: false } });
    });

    it('answers the stored fill for its owner, and asking moves nothing', async () => {
      const u = await s.signUp();
      await credit(s, u.id, 10_000_000);
      const key = `fill-${u.id}-0001`;
      const first = await buy(u.token, key);
      expect(first.body.msg).toBe('ok');
      const before = await balanceOf(s, u.id);
      const postings = (await ledgerOf(s, u.id)).length;

      const res = await outcome(u.token, key);
      expect(res.body.msg).toBe('ok');
      expect(res.body.data).toEqual({ found: true, status: 200, answer: first.body });
      expect(await balanceOf(s, u.id)).toBe(before);
      expect((await ledgerOf(s, u.id)).length).toBe(postings);
    });

    it('answers a rejection with its reason, and a replay of that key is rejected the same way', async () => {
      const u = await s.signUp();
      const key = `poor-${u.id}-0001`;
      const first = await buy(u.token, key);
      expect(first.status).toBe(422);
      expect(first.body).toMatchObject({ msg: 'no', data: 'errors.insufficientFunds' });

      const res = await outcome(u.token, key);
      expect(res.body.data).toEqual({
        found: true,
        status: 422,
        answer: { msg: 'no', data: 'errors.insufficientFunds' },
      });
      // The same key again is the same request: its answer is the stored rejection, even with money now.
      await credit(s, u.id, 10_000_000);
      const again = await buy(u.token, key);
      expect(again.status).toBe(422);
      expect(again.body.data).toBe('errors.insufficientFunds');
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(await ledgerOf(s, u.id)).toHaveLength(1); // the credit only
    });

    it('keeps a rejection with its parameters (the configured minimum)', async () => {
      const u = await s.signUp();
      const key = `low-${u.id}-00001`;
      const res = await s.call('recharge', {
        token: u.token,
        headers: { 'idempotency-key': key },
        body: { count: 1 },
      });
      expect(res.body.msg).toBe('no');
      const looked = await outcome(u.token, key);
      expect(looked.body.data.found).toBe(true);
      expect(looked.body.data.answer).toEqual(res.body);
    });

    it("tells another user nothing about the owner's key", async () => {
      const owner = await s.signUp();
      const other = await s.signUp();
      await credit(s, owner.id, 10_000_000);
      const key = `mine-${owner.id}-0001`;
      expect((await buy(owner.token, key)).body.msg).toBe('ok');
      expect((await outcome(other.token, key)).body).toEqual({ msg: 'ok', data: { found: false } });
      // The other user's own call under the same key is theirs alone (keys are per user).
      await credit(s, other.id, 10_000_000);
      expect((await buy(other.token, key)).headers['idempotent-replay']).toBeUndefined();
      expect((await ledgerOf(s, other.id)).filter((r) => r.reason === 'buyStock')).toHaveLength(1);
    });

    it('asks a visitor to log in, and refuses a malformed key', async () => {
      const visitor = await s.call('moneyOutcome', { query: { key: 'whatever-0001' } });
      expect(visitor.status).toBe(401);
      expect(visitor.body.msg).toBe('logout');
      const u = await s.signUp();
      for (const key of ['short', 'has spaces in it', 'x'.repeat(101), "quote'0001"]) {
        const res = await outcome(u.token, key);
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe('no');
      }
    });
  });
});
