import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFundPassword } from '../../server/account/fund-password';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

describe.each(DIALECTS)('settings: passwords on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { LOGIN_LIMIT_PHONE: '3', LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  describe.skipIf(!enabled)('login password', () => {
    it('changes the password, ends the other sessions and keeps the caller signed in', async () => {
      const { token, phone } = await s.signUp(undefined, 'first-pass');
      const other = await s.call('login', {
        body: { user: phone, password: 'first-pass' },
      });
      const res = await s.call('passwordUp', {
        token,
        body: { password: 'first-pass', password_new: 'second-pass' },
      });
      expect(res.body).toEqual({ msg: 'ok', data: null });
      expect((await s.call('userInfo', { token })).body.msg).toBe('ok');
      const ended = await s.call('userInfo', { token: other.body.data.token });
      expect(ended.status).toBe(401);
      expect(ended.body.msg).toBe('logout');
      const oldLogin = await s.call('login', {
        body: { user: phone, password: 'first-pass' },
      });
      expect(oldLogin.body.data).toBe('errors.invalidCredentials');
      const newLogin = await s.call('login', {
        body: { user: phone, password: 'second-pass' },
      });
      expect(newLogin.body.msg).toBe('ok');
    });

    it.each([
      [
        'a wrong current password',
        { password: 'not-mine', password_new: 'second-pass' },
        'errors.oldPasswordIncorrect',
      ],
      [
        'a new password under 6 characters',
        { password: 'secret123', password_new: '12345' },
        'hint.passwordTooShort',
      ],
      ['an empty new password', { password: 'secret123', password_new: '' }, 'hint.requiredFields'],
      ['an empty current password', { password: '', password_new: 'second-pass' }, 'hint.requiredFields'],
      [
        'an unknown field',
        { password: 'secret123', password_new: 'second-pass', user_id: 1 },
        'errors.invalidInput',
      ],
    ])('rejects %s and keeps the password', async (_label, body, key) => {
      const { token, phone } = await s.signUp();
      const res = await s.call('passwordUp', { token, body });
      expect(res.body).toEqual({ msg: 'no', data: key });
      const login = await s.call('login', {
        body: { user: phone, password: 'secret123' },
      });
      expect(login.body.msg).toBe('ok');
    });

    it('locks the current-password check after repeated wrong guesses', async () => {
      const { token } = await s.signUp();
      for (let i = 0; i < 3; i++) {
        await s.call('passwordUp', {
          token,
          body: { password: `wrong-${i}xx`, password_new: 'second-pass' },
        });
      }
      const res = await s.call('passwordUp', {
        token,
        body: { password: 'secret123', password_new: 'second-pass' },
      });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.tooManyAttempts' });
    });

    it('asks a visitor to log in', async () => {
      const res = await s.call('passwordUp', {
        body: { password: 'a-password', password_new: 'b-password' },
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
    });
  });

  describe.skipIf(!enabled)('transaction password', () => {
    it('is set once the first time, then changed only with the old code', async () => {
      const { token, id } = await s.signUp();
      const first = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      expect(first.body).toEqual({ msg: 'ok', data: null });
      expect((await s.call('userInfo', { token })).body.data.has_fund_password).toBe(true);

      const twice = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '000000' },
      });
      expect(twice.status).toBe(409);
      expect(twice.body.data).toBe('errors.fundPasswordAlreadySet');
      await expect(verifyFundPassword(s.deps, id, '135790')).resolves.toBeUndefined();

      const changed = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', fund_code: '135790', fund_code_new: '246802' },
      });
      expect(changed.body).toEqual({ msg: 'ok', data: null });
      await expect(verifyFundPassword(s.deps, id, '246802')).resolves.toBeUndefined();
      await expect(verifyFundPassword(s.deps, id, '135790')).rejects.toMatchObject({
        key: 'errors.fundPasswordWrong',
      });
    });

    it.each([
      ['five digits', '12345'],
      ['letters', '12345a'],
      ['seven digits', '1234567'],
    ])('rejects a code of %s', async (_label, code) => {
      const { token } = await s.signUp();
      const res = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: code },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'hint.tradePasswordInvalid' });
      expect((await s.call('userInfo', { token })).body.data.has_fund_password).toBe(false);
    });

    it('cannot change a code that was never set', async () => {
      const { token } = await s.signUp();
      const res = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', fund_code: '111111', fund_code_new: '222222' },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.fundPasswordNotSet' });
    });

    it('locks after five wrong old codes, even with the right one', async () => {
      const { token } = await s.signUp();
      await s.call('passwordUp', {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      const wrong = { type: 'transaction', fund_code: '999999', fund_code_new: '222222' };
      for (let i = 0; i < 4; i++) {
        expect((await s.call('passwordUp', { token, body: wrong })).body.data).toBe(
          'errors.fundPasswordWrong',
        );
      }
      const fifth = await s.call('passwordUp', { token, body: wrong });
      expect(fifth.status).toBe(429);
      expect(fifth.body.data).toBe('errors.fundPasswordLocked');
      const right = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', fund_code: '135790', fund_code_new: '222222' },
      });
      expect(right.body.data).toBe('errors.fundPasswordLocked');
      s.clock.advance(16 * 60_000);
      const later = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', fund_code: '135790', fund_code_new: '222222' },
      });
      expect(later.body.msg).toBe('ok');
    });

    it('does not spend an attempt on a malformed new code', async () => {
      const { token, id } = await s.signUp();
      await s.call('passwordUp', {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      const res = await s.call('passwordUp', {
        token,
        body: { type: 'transaction', fund_code: '999999', fund_code_new: '12' },
      });
      expect(res.body.data).toBe('hint.tradePasswordInvalid');
      const row = await s.deps.database.db
        .selectFrom('users')
        .select('fund_password_fails')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.fund_password_fails).toBe(0);
    });
  });
});
