import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshPhone, startTestServer, type TestServer } from '../support/server';

describe.each(DIALECTS)('accounts on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { LOGIN_LIMIT_PHONE: '3', LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  async function userCount(): Promise<number> {
    const row = await s.deps.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe.skipIf(!enabled)('register', () => {
    it('creates an account with the seeded invitation code, and the new user can log in', async () => {
      const phone = freshPhone();
      const reg = await s.call('register', {
        body: { user: phone, password: 'secret123', code: s.config.inviteCode },
      });
      expect(reg.body).toMatchObject({ msg: 'ok', data: { id: expect.any(Number) } });
      const login = await s.call('login', {
        body: { user: phone, password: 'secret123' },
      });
      expect(login.body.msg).toBe('ok');
      expect(login.body.data).toMatchObject({ id: reg.body.data.id, user: phone });
      expect(login.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it.each([
      [
        'a wrong invitation code',
        { user: '5550001111', password: 'secret123', code: 'NOPE' },
        'errors.invalidInvitationCode',
      ],
      [
        'a 9-digit phone',
        { user: '555000111', password: 'secret123', code: 'BOURSE26' },
        'hint.phoneNumberInvalid',
      ],
      [
        'letters in the phone',
        { user: '55500011ab', password: 'secret123', code: 'BOURSE26' },
        'hint.phoneNumberInvalid',
      ],
      [
        'a 5-character password',
        { user: '5550001112', password: '12345', code: 'BOURSE26' },
        'hint.passwordTooShort',
      ],
      ['an empty code', { user: '5550001113', password: 'secret123', code: '' }, 'hint.requiredFields'],
    ])('rejects %s and writes nothing', async (_label, body, key) => {
      const before = await userCount();
      const res = await s.call('register', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect(await userCount()).toBe(before);
    });

    it('rejects a phone that is already registered', async () => {
      const { phone } = await s.signUp();
      const res = await s.call('register', {
        body: { user: phone, password: 'other123', code: s.config.inviteCode },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.phoneTaken' });
    });

    it.each([
      ['a missing field', { user: '5550002222', password: 'secret123' }],
      ['a number for the phone', { user: 5550002222, password: 'secret123', code: 'BOURSE26' }],
      ['an unknown field', { user: '5550002222', password: 'secret123', code: 'BOURSE26', balance: 1e9 }],
    ])('answers malformed input (%s) with invalidInput, never a 500', async (_label, body) => {
      const before = await userCount();
      const res = await s.call('register', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      expect(await userCount()).toBe(before);
    });

    it('answers a body that is not JSON with invalidInput', async () => {
      // A string body is sent as it is.
      const res = await s.call('register', {
        body: '{nope',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });

  describe.skipIf(!enabled)('login, info and logout', () => {
    it('serves user info with the balance to the token holder only', async () => {
      const login = await s.call('login', {
        body: { user: '9876543210', password: 'demo1234' },
      });
      const info = await s.call('userInfo', { token: login.body.data.token });
      expect(info.body).toMatchObject({
        msg: 'ok',
        data: { user: '9876543210', money: '1000000.00', total: '1000000.00', loan: '0.00' },
      });
      // Serialised by a schema (server/routes/answers.ts): every field of the contract is there.
      expect(Object.keys(info.body.data).sort()).toEqual(
        ['frozen', 'has_fund_password', 'id', 'img', 'loan', 'money', 'no', 'total', 'user'].sort(),
      );
      const visitor = await s.call('userInfo');
      expect(visitor.status).toBe(401);
      expect(visitor.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
    });

    it('rejects a wrong password with the translated key', async () => {
      const { phone } = await s.signUp();
      const res = await s.call('login', { body: { user: phone, password: 'wrong-one' } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidCredentials' });
    });

    it('rejects an unknown phone the same way as a wrong password', async () => {
      const res = await s.call('login', {
        body: { user: '1112223334', password: 'whatever1' },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidCredentials' });
    });

    it('validates login input (SPEC §5)', async () => {
      expect((await s.call('login', { body: { user: '', password: '' } })).body.data).toBe(
        'hint.requiredFields',
      );
      expect((await s.call('login', { body: { user: '12345', password: 'secret123' } })).body.data).toBe(
        'hint.phoneNumberInvalid',
      );
    });

    it('revokes the token on logout', async () => {
      const { token } = await s.signUp();
      expect((await s.call('userInfo', { token })).body.msg).toBe('ok');
      expect((await s.call('logout', { token })).body).toEqual({
        msg: 'ok',
        data: null,
      });
      const after = await s.call('userInfo', { token });
      expect(after.status).toBe(401);
      expect(after.body.msg).toBe('logout');
    });

    it('stores only a hash of the token', async () => {
      const { token } = await s.signUp();
      const rows = await s.deps.database.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.some((r) => r.token_hash === token)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    });

    it('expires tokens after their lifetime', async () => {
      const { token } = await s.signUp();
      s.clock.advance(s.config.tokenTtlMs + 1000);
      try {
        const res = await s.call('userInfo', { token });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
      } finally {
        s.clock.advance(-(s.config.tokenTtlMs + 1000));
      }
    });

    it('locks a phone number after repeated failures, even for the right password', async () => {
      const { phone } = await s.signUp();
      for (let i = 0; i < 3; i++) {
        expect((await s.call('login', { body: { user: phone, password: 'bad-pass' } })).body.data).toBe(
          'errors.invalidCredentials',
        );
      }
      const locked = await s.call('login', {
        body: { user: phone, password: 'secret123' },
      });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({ msg: 'no', data: 'errors.tooManyAttempts' });
      s.clock.advance(s.config.loginLimit.windowMs + 1);
      try {
        expect((await s.call('login', { body: { user: phone, password: 'secret123' } })).body.msg).toBe('ok');
      } finally {
        s.clock.advance(-(s.config.loginLimit.windowMs + 1));
      }
    });
  });

  describe.skipIf(!enabled)('forget (reset with the old password)', () => {
    it('changes the password and ends every session', async () => {
      const { phone, token } = await s.signUp();
      const res = await s.call('forget', {
        body: { user: phone, password: 'secret123', new_password: 'newpass99' },
      });
      expect(res.body).toEqual({ msg: 'ok', data: null });
      expect((await s.call('userInfo', { token })).status).toBe(401);
      expect((await s.call('login', { body: { user: phone, password: 'secret123' } })).body.msg).toBe('no');
      expect((await s.call('login', { body: { user: phone, password: 'newpass99' } })).body.msg).toBe('ok');
    });

    it('rejects a wrong old password and a short new one, changing nothing', async () => {
      const { phone } = await s.signUp();
      expect(
        (
          await s.call('forget', {
            body: { user: phone, password: 'nope123', new_password: 'newpass99' },
          })
        ).body.data,
      ).toBe('errors.oldPasswordIncorrect');
      expect(
        (
          await s.call('forget', {
            body: { user: phone, password: 'secret123', new_password: '123' },
          })
        ).body.data,
      ).toBe('hint.passwordTooShort');
      expect((await s.call('login', { body: { user: phone, password: 'secret123' } })).body.msg).toBe('ok');
    });
  });

  describe.skipIf(!enabled)('conventions', () => {
    it('serves config rows as tag/value', async () => {
      const res = await s.call('config');
      expect(res.body.msg).toBe('ok');
      expect(res.body.data).toEqual(
        expect.arrayContaining([
          { tag: 'min_withdraw_count', value: '100' },
          { tag: 'simulated_market', value: '1' },
          { tag: 'limit_band_bps', value: '1000' },
        ]),
      );
    });

    it('answers unknown API paths with notFound JSON', async () => {
      const res = await s.api('GET', '/no/such/thing');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
    });

    it('sends security headers: an API answer is never sniffed as anything but JSON', async () => {
      const res = await s.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // A document's policies are the documents' (tests/server/headers.test.ts).
      expect(res.headers['content-security-policy']).toBeUndefined();
    });
  });
});
