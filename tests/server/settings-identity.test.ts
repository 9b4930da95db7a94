import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadReadPath } from '../../server/lib/uploads';
import { DIALECTS, ops, startTestServer, type TestServer } from '../support/server';
import { multipartBody, PNG, upload } from '../support/wallet';

describe.each(DIALECTS)('settings: uploads and real-name verification on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { LOGIN_LIMIT_PHONE: '3', LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  describe.skipIf(!enabled)('uploads', () => {
    it('stores an image under a server-made name and serves it to its owner only', async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const res = await upload(s, a.token, PNG, { filename: '../../etc/passwd.png' });
      expect(res.body.msg).toBe('ok');
      const { id, url } = res.body.data as { id: string; url: string };
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(url).toBe(`${s.config.apiBase}${uploadReadPath(id)}`);
      expect(fs.readFileSync(path.join(s.config.uploadsDir, id))).toEqual(PNG);
      expect(fs.statSync(path.join(s.config.uploadsDir, id)).mode & 0o077).toBe(0);

      const mine = await s.app.inject({ method: 'GET', url, headers: { token: a.token } });
      expect(mine.statusCode).toBe(200);
      expect(mine.headers['content-type']).toBe('image/png');
      expect(mine.headers['cache-control']).toBe('no-store');
      expect(mine.rawPayload).toEqual(PNG);

      const theirs = await s.app.inject({ method: 'GET', url, headers: { token: b.token } });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ msg: 'no', data: 'errors.notFound' });
      const visitor = await s.app.inject({ method: 'GET', url });
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
      const traversal = await s.app.inject({
        method: 'GET',
        url: `${s.config.apiBase}${uploadReadPath('..%2F..%2Fetc%2Fpasswd')}`,
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
      const json = await s.call('upload', { token, body: { file: 'x' } });
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
      expect((await s.call('kycState', { token })).body.data).toEqual({
        status: 0,
        real_name: null,
        id_type: null,
        id_number: null,
        note: null,
        reason: null,
      });
      const [front, back] = await photos(token);
      const body = {
        real_name: 'Asha Rao',
        id_type: 'idCard',
        id_number: '1234 5678 9012',
        id_number_img: front,
        id_number_img_two: back,
      };
      const submitted = await s.call('kycSubmit', { token, body });
      expect(submitted.body).toEqual({
        msg: 'ok',
        data: {
          status: 1,
          real_name: 'Asha Rao',
          id_type: 'idCard',
          id_number: '**********9012',
          note: null,
          reason: null,
        },
      });
      const again = await s.call('kycSubmit', { token, body: { ...body, real_name: 'Someone Else' } });
      expect(again.status).toBe(409);
      expect(again.body.data).toBe('errors.kycLocked');

      await ops(s, 'kyc:reject', String(id), 'Photo', 'is', 'blurred');
      const rejected = await s.call('kycState', { token });
      expect(rejected.body.data).toMatchObject({ status: 3, note: 'Photo is blurred' });

      const resubmitted = await s.call('kycSubmit', {
        token,
        body: { ...body, id_type: 'passport', id_number: 'K1234567' },
      });
      expect(resubmitted.body.data).toMatchObject({ status: 1, id_type: 'passport', note: null });
      await ops(s, 'kyc:approve', String(id));
      expect((await s.call('kycState', { token })).body.data.status).toBe(2);
      const locked = await s.call('kycSubmit', { token, body });
      expect(locked.body.data).toBe('errors.kycLocked');
      await expect(ops(s, 'kyc:approve', String(id))).rejects.toThrow(/no verification under review/);
    });

    it('reads an omitted id_type as idCard (SPEC §7 sends none)', async () => {
      const { token } = await s.signUp();
      const [front, back] = await photos(token);
      const res = await s.call('kycSubmit', {
        token,
        body: {
          real_name: 'Meera Iyer',
          id_number: 'A1234567',
          id_number_img: front,
          id_number_img_two: back,
        },
      });
      expect(res.body).toMatchObject({ msg: 'ok', data: { status: 1, id_type: 'idCard' } });
      expect((await s.call('kycState', { token })).body.data.id_type).toBe('idCard');
    });

    it("refuses another user's photos", async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      const [front, back] = await photos(a.token);
      const res = await s.call('kycSubmit', {
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
      expect((await s.call('kycState', { token: b.token })).body.data.status).toBe(0);
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
      const res = await s.call('kycSubmit', {
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
      expect((await s.call('kycState', { token })).body.data.status).toBe(0);
    });
  });
});
