import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFundPassword } from '../../server/lib/fund-password';
import { COMMANDS } from '../../server/ops/commands/index';
import { BANK_CARDS_PER_USER } from '../../server/routes/settings';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { addCard, fund, multipartBody, PNG, upload } from '../support/wallet';

const PASSWORD_UP = '/stock/success/user/password/up';
const BANK_ADD = '/stock/success/bank/add';
const BANK_EDIT = '/stock/success/bank/edit';
const KYC_ADD = '/stock/success/autonomy/add';
const KYC_STATE = '/stock/success/autonomy/state';

const CARD = {
  bank: 'ICICI Bank',
  branch_bank: 'Koramangala, Bengaluru',
  bank_card: '0012 3456 7890 12',
  bank_user: 'Ravi Kumar',
  ifsc: 'icic0001234',
};

function ops(s: TestServer, name: string, ...args: string[]): Promise<unknown> {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run(s.deps, args);
}

describe.each(DIALECTS)('settings on $name', ({ name, enabled }) => {
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
      const other = await s.api('POST', '/stock/user/login', {
        body: { user: phone, password: 'first-pass' },
      });
      const res = await s.api('POST', PASSWORD_UP, {
        token,
        body: { password: 'first-pass', password_new: 'second-pass' },
      });
      expect(res.body).toEqual({ msg: 'ok', data: null });
      expect((await s.api('GET', '/stock/success/v2/user/info', { token })).body.msg).toBe('ok');
      const ended = await s.api('GET', '/stock/success/v2/user/info', { token: other.body.data.token });
      expect(ended.status).toBe(401);
      expect(ended.body.msg).toBe('logout');
      const oldLogin = await s.api('POST', '/stock/user/login', {
        body: { user: phone, password: 'first-pass' },
      });
      expect(oldLogin.body.data).toBe('errors.invalidCredentials');
      const newLogin = await s.api('POST', '/stock/user/login', {
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
      const res = await s.api('POST', PASSWORD_UP, { token, body });
      expect(res.body).toEqual({ msg: 'no', data: key });
      const login = await s.api('POST', '/stock/user/login', {
        body: { user: phone, password: 'secret123' },
      });
      expect(login.body.msg).toBe('ok');
    });

    it('locks the current-password check after repeated wrong guesses', async () => {
      const { token } = await s.signUp();
      for (let i = 0; i < 3; i++) {
        await s.api('POST', PASSWORD_UP, {
          token,
          body: { password: `wrong-${i}xx`, password_new: 'second-pass' },
        });
      }
      const res = await s.api('POST', PASSWORD_UP, {
        token,
        body: { password: 'secret123', password_new: 'second-pass' },
      });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.tooManyAttempts' });
    });

    it('asks a visitor to log in', async () => {
      const res = await s.api('POST', PASSWORD_UP, {
        body: { password: 'a-password', password_new: 'b-password' },
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
    });
  });

  describe.skipIf(!enabled)('transaction password', () => {
    it('is set once the first time, then changed only with the old code', async () => {
      const { token, id } = await s.signUp();
      const first = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      expect(first.body).toEqual({ msg: 'ok', data: null });
      expect((await s.api('GET', '/stock/success/v2/user/info', { token })).body.data.has_fund_password).toBe(
        true,
      );

      const twice = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '000000' },
      });
      expect(twice.status).toBe(409);
      expect(twice.body.data).toBe('errors.fundPasswordAlreadySet');
      await expect(verifyFundPassword(s.deps, id, '135790')).resolves.toBeUndefined();

      const changed = await s.api('POST', PASSWORD_UP, {
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
      const res = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: code },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'hint.tradePasswordInvalid' });
      expect((await s.api('GET', '/stock/success/v2/user/info', { token })).body.data.has_fund_password).toBe(
        false,
      );
    });

    it('cannot change a code that was never set', async () => {
      const { token } = await s.signUp();
      const res = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', fund_code: '111111', fund_code_new: '222222' },
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.fundPasswordNotSet' });
    });

    it('locks after five wrong old codes, even with the right one', async () => {
      const { token } = await s.signUp();
      await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      const wrong = { type: 'transaction', fund_code: '999999', fund_code_new: '222222' };
      for (let i = 0; i < 4; i++) {
        expect((await s.api('POST', PASSWORD_UP, { token, body: wrong })).body.data).toBe(
          'errors.fundPasswordWrong',
        );
      }
      const fifth = await s.api('POST', PASSWORD_UP, { token, body: wrong });
      expect(fifth.status).toBe(429);
      expect(fifth.body.data).toBe('errors.fundPasswordLocked');
      const right = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', fund_code: '135790', fund_code_new: '222222' },
      });
      expect(right.body.data).toBe('errors.fundPasswordLocked');
      s.clock.advance(16 * 60_000);
      const later = await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', fund_code: '135790', fund_code_new: '222222' },
      });
      expect(later.body.msg).toBe('ok');
    });

    it('does not spend an attempt on a malformed new code', async () => {
      const { token, id } = await s.signUp();
      await s.api('POST', PASSWORD_UP, {
        token,
        body: { type: 'transaction', is_first: true, fund_code_new: '135790' },
      });
      const res = await s.api('POST', PASSWORD_UP, {
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

  describe.skipIf(!enabled)('bank cards', () => {
    it('adds a card with the number masked in answers and lists only the caller’s', async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const res = await s.api('POST', BANK_ADD, { token: a.token, body: CARD });
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
      const listA = await s.api('GET', '/stock/success/bank/list', { token: a.token });
      expect(listA.body.data).toEqual([res.body.data]);
      expect((await s.api('GET', '/stock/success/bank/list', { token: b.token })).body.data).toEqual([]);
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
      const { token, id } = await s.signUp();
      const res = await s.api('POST', BANK_ADD, { token, body: { ...CARD, ...change } });
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
      const { token } = await s.signUp();
      const { db } = s.deps.database;
      await db.updateTable('config').set({ value: 'MXN' }).where('tag', '=', 'currency_unit').execute();
      try {
        const swift = await s.api('POST', BANK_ADD, { token, body: { ...CARD, ifsc: 'BNMXMXMM' } });
        expect(swift.body.msg).toBe('ok');
        const junk = await s.api('POST', BANK_ADD, {
          token,
          body: { ...CARD, bank_card: '99887766554433', ifsc: 'X123' },
        });
        expect(junk.body.data).toBe('errors.ifscInvalid');
      } finally {
        await db.updateTable('config').set({ value: 'INR' }).where('tag', '=', 'currency_unit').execute();
      }
    });

    it('refuses the same card twice and more than the per-user limit', async () => {
      const { token } = await s.signUp();
      expect((await s.api('POST', BANK_ADD, { token, body: CARD })).body.msg).toBe('ok');
      const dup = await s.api('POST', BANK_ADD, { token, body: { ...CARD, bank_card: '00123456789012' } });
      expect(dup.status).toBe(409);
      expect(dup.body.data).toBe('errors.bankCardExists');
      for (let i = 1; i < BANK_CARDS_PER_USER; i++) await addCard(s, token);
      const over = await s.api('POST', BANK_ADD, { token, body: { ...CARD, bank_card: '77777777777777' } });
      expect(over.body.data).toBe('errors.bankCardLimit');
    });

    it('edits only the caller’s card, and not while a withdrawal to it is on its way', async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const added = await s.api('POST', BANK_ADD, { token: a.token, body: CARD });
      const cardId = added.body.data.id;
      const edit = { ...CARD, id: cardId, bank_user: 'Ravi K. Kumar', ifsc: 'ICIC0009999' };
      const stolen = await s.api('POST', BANK_EDIT, { token: b.token, body: edit });
      expect(stolen.status).toBe(404);
      expect(stolen.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      const own = await s.api('POST', BANK_EDIT, { token: a.token, body: edit });
      expect(own.body.data).toMatchObject({ id: cardId, bank_user: 'Ravi K. Kumar', ifsc: 'ICIC0009999' });

      await fund(s, a.token, 5000);
      const w = await s.api('POST', '/stock/success/money/access', {
        token: a.token,
        body: { bank_id: cardId, count: 500 },
      });
      expect(w.body.msg).toBe('ok');
      const busy = await s.api('POST', BANK_EDIT, { token: a.token, body: { ...edit, bank: 'Other Bank' } });
      expect(busy.status).toBe(409);
      expect(busy.body.data).toBe('errors.bankCardInUse');
      const invalid = await s.api('POST', BANK_EDIT, { token: a.token, body: { ...edit, ifsc: 'nope' } });
      expect(invalid.body.data).toBe('errors.ifscInvalid');
    });
  });

  describe.skipIf(!enabled)('uploads', () => {
    it('stores an image under a server-made name and serves it to its owner only', async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const res = await upload(s, a.token, PNG, { filename: '../../etc/passwd.png' });
      expect(res.body.msg).toBe('ok');
      const { id, url } = res.body.data as { id: string; url: string };
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(url).toBe(`${s.config.apiBase}/stock/success/upload/${id}`);
      expect(fs.readFileSync(path.join(s.config.uploadsDir, id))).toEqual(PNG);
      expect(fs.statSync(path.join(s.config.uploadsDir, id)).mode & 0o077).toBe(0);

      const mine = await s.app.inject({ method: 'GET', url, headers: { token: a.token } });
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['content-type']).toBe('image/png');
      expect(mine.headers['cache-control']).toBe('private, no-store');
      expect(mine.rawPayload).toEqual(PNG);

      const theirs = await s.app.inject({ method: 'GET', url, headers: { token: b.token } });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ msg: 'no', data: 'errors.notFound' });
      const visitor = await s.app.inject({ method: 'GET', url });
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
      const traversal = await s.app.inject({
        method: 'GET',
        url: `${s.config.apiBase}/stock/success/upload/..%2F..%2Fetc%2Fpasswd`,
        headers: { token: a.token },
      });
      expect(traversal.statusCode).toBe(404);
    });

    it.each([
      ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), 'image/jpeg'],
      [
        'WebP',
        Buffer.concat([
          Buffer.from('RIFF'),
          Buffer.from([0x1a, 0, 0, 0]),
          Buffer.from('WEBPVP8 '),
          Buffer.alloc(14),
        ]),
        'image/webp',
      ],
    ])('recognises %s by its bytes whatever the file is called', async (_label, bytes, mime) => {
      const { token } = await s.signUp();
      const res = await upload(s, token, bytes, { filename: 'scan.bin', type: 'application/octet-stream' });
      expect(res.body.msg).toBe('ok');
      const got = await s.app.inject({
        method: 'GET',
        url: (res.body.data as { url: string }).url,
        headers: { token },
      });
      expect(got.headers['content-type']).toBe(mime);
    });

    it('rejects a .png that is really text, by its content', async () => {
      const { token, id } = await s.signUp();
      const res = await upload(s, token, Buffer.from('<script>alert(1)</script> not an image'), {
        filename: 'photo.png',
        type: 'image/png',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notAnImage' });
      const rows = await s.deps.database.db
        .selectFrom('uploads')
        .select('id')
        .where('user_id', '=', id)
        .execute();
      expect(rows).toEqual([]);
    });

    it('rejects a file over 2 MB and keeps a file just under it', async () => {
      const { token, id } = await s.signUp();
      const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG.length)]);
      const res = await upload(s, token, big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.tooLarge' });
      const rows = await s.deps.database.db
        .selectFrom('uploads')
        .select('id')
        .where('user_id', '=', id)
        .execute();
      expect(rows).toEqual([]);
      const fits = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length)]);
      expect((await upload(s, token, fits)).body.msg).toBe('ok');
    });

    it('rejects a request without a file field, or without a session', async () => {
      const { token } = await s.signUp();
      const wrongField = await upload(s, token, PNG, { field: 'photo' });
      expect(wrongField.body).toEqual({ msg: 'no', data: 'errors.uploadMissing' });
      const json = await s.api('POST', '/stock/success/upload', { token, body: { file: 'x' } });
      expect(json.body).toEqual({ msg: 'no', data: 'errors.uploadMissing' });
      const { payload, headers } = multipartBody(PNG);
      const visitor = await s.app.inject({
        method: 'POST',
        url: `${s.config.apiBase}/stock/success/upload`,
        headers,
        payload,
      });
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json().msg).toBe('logout');
    });
  });

  describe.skipIf(!enabled)('real-name verification', () => {
    async function photos(token: string): Promise<[string, string]> {
      const front = await upload(s, token);
      const back = await upload(s, token);
      return [(front.body.data as { url: string }).url, (back.body.data as { id: string }).id];
    }

    it('starts empty, is submitted for review, locks, and reopens when rejected', async () => {
      const { token, id } = await s.signUp();
      expect((await s.api('GET', KYC_STATE, { token })).body.data).toEqual({
        status: 0,
        real_name: null,
        id_type: null,
        id_number: null,
        note: null,
      });
      const [front, back] = await photos(token);
      const body = {
        real_name: 'Asha Rao',
        id_type: 'idCard',
        id_number: '1234 5678 9012',
        id_number_img: front,
        id_number_img_two: back,
      };
      const submitted = await s.api('POST', KYC_ADD, { token, body });
      expect(submitted.body).toEqual({
        msg: 'ok',
        data: {
          status: 1,
          real_name: 'Asha Rao',
          id_type: 'idCard',
          id_number: '**********9012',
          note: null,
        },
      });
      const again = await s.api('POST', KYC_ADD, { token, body: { ...body, real_name: 'Someone Else' } });
      expect(again.status).toBe(409);
      expect(again.body.data).toBe('errors.kycLocked');

      await ops(s, 'kyc:reject', String(id), 'Photo', 'is', 'blurred');
      const rejected = await s.api('GET', KYC_STATE, { token });
      expect(rejected.body.data).toMatchObject({ status: 3, note: 'Photo is blurred' });

      const resubmitted = await s.api('POST', KYC_ADD, {
        token,
        body: { ...body, id_type: 'passport', id_number: 'K1234567' },
      });
      expect(resubmitted.body.data).toMatchObject({ status: 1, id_type: 'passport', note: null });
      await ops(s, 'kyc:approve', String(id));
      expect((await s.api('GET', KYC_STATE, { token })).body.data.status).toBe(2);
      const locked = await s.api('POST', KYC_ADD, { token, body });
      expect(locked.body.data).toBe('errors.kycLocked');
      await expect(ops(s, 'kyc:approve', String(id))).rejects.toThrow(/no verification under review/);
    });

    it("refuses another user's photos", async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const [front, back] = await photos(a.token);
      const res = await s.api('POST', KYC_ADD, {
        token: b.token,
        body: {
          real_name: 'B',
          id_type: 'other',
          id_number: 'X12345',
          id_number_img: front,
          id_number_img_two: back,
        },
      });
      expect(res.status).toBe(404);
      expect(res.body.data).toBe('errors.notFound');
      expect((await s.api('GET', KYC_STATE, { token: b.token })).body.data.status).toBe(0);
    });

    it.each([
      ['a missing photo reference', { id_number_img: 'not-an-upload' }, 'errors.kycPhotoMissing'],
      ['a blank name', { real_name: '  ' }, 'hint.requiredFields'],
      ['an id number with symbols', { id_number: '12<34>56' }, 'errors.idNumberInvalid'],
      ['an unknown id type', { id_type: 'library-card' }, 'errors.invalidInput'],
      ['a status field', { status: 2 }, 'errors.invalidInput'],
    ])('rejects %s', async (_label, change, key) => {
      const { token } = await s.signUp();
      const [front, back] = await photos(token);
      const res = await s.api('POST', KYC_ADD, {
        token,
        body: {
          real_name: 'Asha Rao',
          id_type: 'idCard',
          id_number: '123456789012',
          id_number_img: front,
          id_number_img_two: back,
          ...change,
        },
      });
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect((await s.api('GET', KYC_STATE, { token })).body.data.status).toBe(0);
    });
  });
});
