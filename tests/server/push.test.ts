import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSecurityNotice } from '../../server/account/security-events';
import { replyToChat } from '../../server/content/chat';
import { withTx } from '../../server/db/index';
import { JOBS, runJob } from '../../server/jobs/index';
import { payoutNoticeOf } from '../../server/notify/notify';
import { DELIVERY, LEASE_MS, type PushPayload, RETRY_MS, sendPushes } from '../../server/notify/sender';
import { decryptPush, newDevice, type PushService, startPushService, verifyVapid } from '../support/push';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { controlMarket, credit, expectLedgerConsistent, idem, toSession } from '../support/trading';

/** Where a security event came from: a phone's browser and the address the server saw. */
const ORIGIN = {
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
  address: '203.0.113.7',
};

/**
 * Web Push against a push service of the test's own (tests/support/push.ts): the server
 * sends each notice to every subscribed device, signed with its VAPID key and encrypted for the
 * device; the test checks the JWT and decrypts the payload with the device's private key. 404/410
 * drop a subscription; a failed send is retried with backoff and, once sent, never again; a claim
 * left by a sender that died is never sent. The outbox rows of every kind of event are in
 * push-events.test.ts.
 */
const SYMBOL = 'RELIANCE.NS';

describe.each(DIALECTS)('web push on $name', ({ name, enabled }) => {
  let s: TestServer;
  let service: PushService;
  let seq = 0;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { PUSH_LOOPBACK: '1' });
    service = await startPushService();
    controlMarket(s).pin(SYMBOL, 2500);
    toSession(s, SYMBOL);
  });
  afterAll(async () => {
    await service?.close();
    await s?.close();
  });

  async function trader() {
    const u = await s.signUp();
    await credit(s, u.id, 10_000_000);
    return u;
  }
  async function subscribed(token: string, lang = 'en') {
    seq += 1;
    const device = newDevice(`${service.url}/d/${name}-${seq}`);
    const res = await s.call('pushSubscribe', {
      token,
      body: { endpoint: device.endpoint, keys: device.keys, device: `Phone ${seq}`, lang },
    });
    expect(res.body.msg, JSON.stringify(res.body)).toBe('ok');
    return { ...device, id: res.body.data.id as number, path: new URL(device.endpoint).pathname };
  }
  /** A chat reply to the user: a notice of its own transaction (content/chat.ts). */
  async function notice(userId: number) {
    await withTx(s.deps.database, (trx) => replyToChat(s.deps, userId, 'Hello', trx));
  }
  const to = (path: string) => service.received.filter((r) => r.path === path);
  const deliveries = (subscription: number) =>
    s.deps.database.db
      .selectFrom('push_deliveries')
      .selectAll()
      .where('subscription_id', '=', subscription)
      .execute();

  it.runIf(enabled)(
    'a fill reaches the device: a valid VAPID JWT, a payload only its key decrypts, no amounts on the lock screen',
    async () => {
      const u = await trader();
      const device = await subscribed(u.token);
      const control = controlMarket(s);
      control.pin(SYMBOL, 2500);
      const placed = await s.call('dealBuy', {
        token: u.token,
        body: { mold: 'stock', tag: SYMBOL, count: 10, price: 2450, order_type: 'limit' },
        headers: idem(),
      });
      expect(placed.body.data.status, JSON.stringify(placed.body)).toBe(0);
      control.pin(SYMBOL, 2440);
      await runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);
      const before = service.received.length;
      const run = await sendPushes(s.deps);
      expect(run.outcomes.sent).toBe(1);
      await service.waitFor(before + 1);
      const [got] = to(device.path);
      expect(got?.status).toBe(201);
      expect(got?.headers['content-encoding']).toBe('aes128gcm');
      expect(got?.headers.ttl).toBe('86400');
      expect(got?.headers.urgency).toBe('high');

      const claims = verifyVapid(got?.headers.authorization);
      const settings = await s.call('pushSettings', { token: u.token });
      expect(claims.key).toBe(settings.body.data.public_key);
      expect(claims.aud).toBe(service.url);
      expect(claims.sub).toMatch(/^mailto:/);
      const wall = Date.now() / 1000;
      expect(claims.exp).toBeGreaterThan(wall);
      expect(claims.exp).toBeLessThanOrEqual(wall + 24 * 3600);

      const payload = JSON.parse(decryptPush(device, got!.body)) as PushPayload;
      expect(payload).toMatchObject({
        v: 1,
        kind: 'order',
        tag: 'bourse-order',
        title: 'Order filled · RELIANCE',
        body: 'Tap to see the order.',
        path: `/records?order=${placed.body.data.no}`,
        badge: 1,
      });
      expect(JSON.stringify(payload)).not.toMatch(/2,44|2440|₹/);
      // Another device's key cannot read it.
      expect(() => decryptPush(newDevice(device.endpoint), got!.body)).toThrow();
      // Sent once: later runs send it again to nobody.
      s.clock.advance(3600_000);
      await sendPushes(s.deps);
      expect(to(device.path)).toHaveLength(1);
      const [row] = await deliveries(device.id);
      expect(row).toMatchObject({ state: DELIVERY.sent, attempts: 1, status: 201 });
      const sub = await s.deps.database.db
        .selectFrom('push_subscriptions')
        .select('last_success_at')
        .where('id', '=', device.id)
        .executeTakeFirstOrThrow();
      expect(sub.last_success_at).not.toBeNull();
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)(
    'amounts on the lock screen only when allowed; the text is in the device’s language',
    async () => {
      const u = await trader();
      const en = await subscribed(u.token, 'en');
      const de = await subscribed(u.token, 'de');
      const prefs = await s.call('pushPrefs', {
        token: u.token,
        body: {
          kinds: { alert: true, order: true, ipo: true, payout: true, chat: true },
          amounts: true,
          quiet: null,
        },
      });
      expect(prefs.body).toMatchObject({ msg: 'ok', data: { amounts: true } });
      await withTx(s.deps.database, (trx) =>
        payoutNoticeOf(trx, { userId: u.id, id: 1, amount: 250_000, event: 'paid', at: s.clock.now() }),
      );
      await sendPushes(s.deps);
      const english = JSON.parse(decryptPush(en, to(en.path)[0]!.body)) as PushPayload;
      expect(english).toMatchObject({
        title: 'Withdrawal paid',
        body: '₹2,500.00 sent to your bank account',
      });
      const german = JSON.parse(decryptPush(de, to(de.path)[0]!.body)) as PushPayload;
      expect(german.title).toBe('Auszahlung überwiesen');
      expect(german.body).toContain('₹2,500.00');
    },
  );

  it.runIf(enabled)('404 and 410 from the push service drop the subscription', async () => {
    for (const status of [404, 410]) {
      const u = await trader();
      const device = await subscribed(u.token);
      service.answer(device.path, [status]);
      await notice(u.id);
      const run = await sendPushes(s.deps);
      expect(run.outcomes.gone).toBe(1);
      expect(to(device.path).map((r) => r.status)).toEqual([status]);
      const settings = await s.call('pushSettings', { token: u.token });
      expect(settings.body.data.devices).toEqual([]);
      // Nothing is sent there again.
      await notice(u.id);
      await sendPushes(s.deps);
      expect(to(device.path)).toHaveLength(1);
    }
  });

  it.runIf(enabled)('a failed send is retried after its backoff and, once sent, never again', async () => {
    const u = await trader();
    const device = await subscribed(u.token);
    service.answer(device.path, [503, 429]);
    await notice(u.id);
    expect((await sendPushes(s.deps)).outcomes.retry).toBe(1);
    // Not before its wait is over.
    s.clock.advance(RETRY_MS[0]! - 1000);
    await sendPushes(s.deps);
    expect(to(device.path).map((r) => r.status)).toEqual([503]);
    s.clock.advance(1000);
    expect((await sendPushes(s.deps)).outcomes.retry).toBe(1);
    s.clock.advance(RETRY_MS[1]!);
    expect((await sendPushes(s.deps)).outcomes.sent).toBe(1);
    expect(to(device.path).map((r) => r.status)).toEqual([503, 429, 201]);
    for (let i = 0; i < 3; i++) {
      s.clock.advance(RETRY_MS[4]!);
      await sendPushes(s.deps);
    }
    expect(to(device.path)).toHaveLength(3);
    expect(await deliveries(device.id)).toMatchObject([{ state: DELIVERY.sent, attempts: 3 }]);
    // Every payload was the same notice, decrypted with the device's key each time.
    const ids = to(device.path).map((r) => (JSON.parse(decryptPush(device, r.body)) as PushPayload).id);
    expect(new Set(ids).size).toBe(1);
  });

  it.runIf(enabled)(
    'a batch with a 410 and a 500 among successes: the 410 dropped, the 500 retried later, the rest sent once',
    async () => {
      const devices = [];
      for (let i = 0; i < 6; i++) {
        const u = await trader();
        devices.push({ user: u, device: await subscribed(u.token) });
      }
      const [gone, failing, ...fine] = devices;
      service.answer(gone!.device.path, [410]);
      service.answer(failing!.device.path, [500]);
      for (const d of devices) await notice(d.user.id);
      const run = await sendPushes(s.deps);
      expect(run.outcomes).toMatchObject({ sent: fine.length, gone: 1, retry: 1, failed: 0 });
      for (const d of fine) {
        expect(to(d.device.path).map((r) => r.status)).toEqual([201]);
        expect(await deliveries(d.device.id)).toMatchObject([
          { state: DELIVERY.sent, attempts: 1, status: 201 },
        ]);
      }
      expect(await deliveries(gone!.device.id)).toEqual([]);
      expect((await s.call('pushSettings', { token: gone!.user.token })).body.data.devices).toEqual([]);
      const [retried] = await deliveries(failing!.device.id);
      expect(retried).toMatchObject({ state: DELIVERY.due, attempts: 1, status: 500 });
      // Not due again before its backoff from the attempt.
      expect(Number(retried!.next_at) - Number(retried!.claimed_at)).toBeGreaterThanOrEqual(RETRY_MS[0]!);
      expect(Number(retried!.next_at)).toBeGreaterThan(s.clock.now());
      s.clock.advance(RETRY_MS[0]!);
      expect((await sendPushes(s.deps)).outcomes).toMatchObject({ sent: 1, retry: 0, gone: 0 });
      expect(to(failing!.device.path).map((r) => r.status)).toEqual([500, 201]);
      for (let i = 0; i < 3; i++) {
        s.clock.advance(RETRY_MS[4]!);
        await sendPushes(s.deps);
      }
      for (const d of fine) expect(to(d.device.path)).toHaveLength(1);
      expect(to(gone!.device.path)).toHaveLength(1);
      expect(to(failing!.device.path)).toHaveLength(2);
      const payload = JSON.parse(
        decryptPush(failing!.device, to(failing!.device.path)[1]!.body),
      ) as PushPayload;
      expect(payload).toMatchObject({ kind: 'chat', path: expect.any(String) });
    },
  );

  it.runIf(enabled)(
    'the browser replaces a subscription: the old endpoint moves the device to the new one, with no session',
    async () => {
      const u = await trader();
      const before = await subscribed(u.token, 'de');
      const key = await s.call('pushKey', {});
      expect(key.body.data.public_key).toBe(
        (await s.call('pushSettings', { token: u.token })).body.data.public_key,
      );
      seq += 1;
      const renewed = newDevice(`${service.url}/d/${name}-${seq}`);
      const moved = await s.call('pushResubscribe', {
        body: { old_endpoint: before.endpoint, endpoint: renewed.endpoint, keys: renewed.keys },
      });
      expect(moved.body, JSON.stringify(moved.body)).toEqual({ msg: 'ok', data: null });
      const devices = (await s.call('pushSettings', { token: u.token })).body.data.devices;
      expect(devices.map((d: { id: number }) => d.id)).toEqual([before.id]);
      // Pushes go to the new endpoint, encrypted for its keys, in the device's language.
      await notice(u.id);
      expect((await sendPushes(s.deps)).outcomes.sent).toBe(1);
      const path = new URL(renewed.endpoint).pathname;
      expect(to(before.path)).toEqual([]);
      expect(JSON.parse(decryptPush(renewed, to(path)[0]!.body))).toMatchObject({ kind: 'chat' });
      // The old endpoint proves nothing any more; an unknown one, or a new endpoint the server would not send to, changes nothing.
      const again = await s.call('pushResubscribe', {
        body: { old_endpoint: before.endpoint, endpoint: renewed.endpoint, keys: renewed.keys },
      });
      expect(again.status).toBe(404);
      const evil = await s.call('pushResubscribe', {
        body: { old_endpoint: renewed.endpoint, endpoint: 'https://evil.example/a', keys: renewed.keys },
      });
      expect(evil.body).toEqual({ msg: 'no', data: 'errors.pushEndpoint' });
      const still = await s.deps.database.db
        .selectFrom('push_subscriptions')
        .select(['endpoint', 'lang', 'user_id'])
        .where('id', '=', before.id)
        .executeTakeFirstOrThrow();
      expect(still).toEqual({ endpoint: renewed.endpoint, lang: 'de', user_id: u.id });
    },
  );

  it.runIf(enabled)('a push service that does not answer is retried too', async () => {
    const u = await trader();
    // A port nothing listens on.
    const closed = await startPushService();
    await closed.close();
    const device = newDevice(`${closed.url}/d/gone`);
    const res = await s.call('pushSubscribe', {
      token: u.token,
      body: { endpoint: device.endpoint, keys: device.keys, device: 'Offline', lang: 'en' },
    });
    await notice(u.id);
    expect((await sendPushes(s.deps)).outcomes.retry).toBe(1);
    expect(await deliveries(res.body.data.id)).toMatchObject([
      { state: DELIVERY.due, status: 0, attempts: 1 },
    ]);
  });

  it.runIf(enabled)(
    'a claim left by a sender that died mid-request is never sent: it may have arrived',
    async () => {
      const u = await trader();
      const device = await subscribed(u.token);
      await notice(u.id);
      // Hand it to the device, then claim it as a sender would just before its request.
      service.answer(device.path, [503]);
      await sendPushes(s.deps);
      s.clock.advance(RETRY_MS[0]!);
      await s.deps.database.db
        .updateTable('push_deliveries')
        .set({ state: DELIVERY.sending, claimed_at: s.clock.now() })
        .where('subscription_id', '=', device.id)
        .execute();
      await sendPushes(s.deps);
      s.clock.advance(LEASE_MS + 1);
      expect((await sendPushes(s.deps)).outcomes.doubt).toBe(1);
      s.clock.advance(RETRY_MS[4]!);
      await sendPushes(s.deps);
      expect(to(device.path).map((r) => r.status)).toEqual([503]);
      expect(await deliveries(device.id)).toMatchObject([{ state: DELIVERY.doubt }]);
    },
  );

  it.runIf(enabled)(
    'a group turned off or quiet hours send nothing; security notices always go',
    async () => {
      const u = await trader();
      const device = await subscribed(u.token);
      const kinds = { alert: true, order: true, ipo: true, payout: true, chat: false };
      await s.call('pushPrefs', { token: u.token, body: { kinds, amounts: false, quiet: null } });
      await notice(u.id);
      expect((await sendPushes(s.deps)).unsent).toBe(1);
      // Quiet all day but a minute, in the device's zone.
      const local = new Date(s.clock.now() + 5.5 * 3600_000);
      const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
      const hhmm = (m: number) =>
        `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const quiet = { start: hhmm(minute), end: hhmm(minute + 1439), tz: 'Asia/Kolkata' };
      const set = await s.call('pushPrefs', {
        token: u.token,
        body: { kinds: { ...kinds, chat: true }, amounts: false, quiet },
      });
      expect(set.body, JSON.stringify(set.body)).toMatchObject({ msg: 'ok', data: { quiet } });
      await notice(u.id);
      expect((await sendPushes(s.deps)).unsent).toBe(1);
      await withTx(s.deps.database, (trx) =>
        postSecurityNotice(trx, u.id, 'totpAdded', s.clock.now(), {}, ORIGIN),
      );
      expect((await sendPushes(s.deps)).outcomes.sent).toBe(1);
      const [got] = to(device.path);
      expect(JSON.parse(decryptPush(device, got!.body))).toMatchObject({
        kind: 'security',
        title: 'Authenticator app turned on',
        // Where it came from, even on a lock screen that shows no amounts.
        body: 'From Chrome on Android · 203.0.113.7. Not you? Change your password and review Sign-in & security.',
        path: '/settings/security',
      });
    },
  );

  it.runIf(enabled)(
    'subscribing: only https endpoints of push services, keys on P-256, a cap per user; an endpoint moves with its browser',
    async () => {
      const u = await trader();
      const keys = newDevice('x').keys;
      const tryEndpoint = (endpoint: string, k = keys) =>
        s.call('pushSubscribe', { token: u.token, body: { endpoint, keys: k, device: 'P', lang: 'en' } });
      for (const endpoint of [
        'http://fcm.googleapis.com/fcm/send/a',
        'https://evil.example/fcm/send/a',
        'https://fcm.googleapis.com.evil.example/a',
        'https://user:pw@fcm.googleapis.com/fcm/send/a',
        'https://fcm.googleapis.com:8443/fcm/send/a',
        'http://127.0.0.2:9/a',
        'http://localhost:9/a',
        'not a url at all',
      ]) {
        const res = await tryEndpoint(endpoint);
        expect(res.status, endpoint).toBe(400);
        expect(res.body, endpoint).toEqual({ msg: 'no', data: 'errors.pushEndpoint' });
      }
      // 65 bytes starting 04, but not a point of the curve.
      const offCurve = {
        p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
        auth: keys.auth,
      };
      expect((await tryEndpoint('https://fcm.googleapis.com/fcm/send/a', offCurve)).status).toBe(400);
      for (const endpoint of [
        'https://fcm.googleapis.com/fcm/send/ok',
        'https://updates.push.services.mozilla.com/wpush/v2/ok',
        'https://web.push.apple.com/ok',
      ])
        expect((await tryEndpoint(endpoint)).body.msg, endpoint).toBe('ok');
      // Up to the cap; the same endpoint again is an update, not one more.
      for (let i = 3; i < s.config.push.maxDevices; i++)
        expect((await tryEndpoint(`https://fcm.googleapis.com/fcm/send/n${i}`)).body.msg).toBe('ok');
      expect((await tryEndpoint('https://fcm.googleapis.com/fcm/send/ok')).body.msg).toBe('ok');
      const over = await tryEndpoint('https://fcm.googleapis.com/fcm/send/one-more');
      expect(over.status).toBe(409);
      expect(over.body).toEqual({ msg: 'no', data: 'errors.pushDeviceLimit', params: { max: 10 } });
      // The browser signs in as someone else: its endpoint leaves the first user.
      const v = await trader();
      const moved = await s.call('pushSubscribe', {
        token: v.token,
        body: { endpoint: 'https://fcm.googleapis.com/fcm/send/ok', keys, device: 'Shared', lang: 'en' },
      });
      expect(moved.body.msg).toBe('ok');
      const mine = (await s.call('pushSettings', { token: u.token })).body.data.devices;
      expect(mine).toHaveLength(s.config.push.maxDevices - 1);
      const theirs = (await s.call('pushSettings', { token: v.token })).body.data.devices;
      expect(theirs).toMatchObject([{ device: 'Shared' }]);
      expect(await s.call('pushUnsubscribe', { token: v.token, body: { id: theirs[0].id } })).toMatchObject({
        status: 200,
      });
      expect((await s.call('pushUnsubscribe', { token: v.token, body: { id: theirs[0].id } })).status).toBe(
        404,
      );
      // Preferences: an unknown zone, or hours that start where they end.
      const kinds = { alert: true, order: true, ipo: true, payout: true, chat: true };
      const zone = await s.call('pushPrefs', {
        token: u.token,
        body: { kinds, amounts: false, quiet: { start: '22:00', end: '07:00', tz: 'Mars/Olympus' } },
      });
      expect(zone.body).toEqual({ msg: 'no', data: 'errors.pushTimezone' });
      const empty = await s.call('pushPrefs', {
        token: u.token,
        body: { kinds, amounts: false, quiet: { start: '22:00', end: '22:00', tz: 'UTC' } },
      });
      expect(empty.status).toBe(400);
    },
  );
});
