import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/factors/index';
import { SoftAuthenticator } from '../support/authenticator';
import { DIALECTS, freshPhone, startTestServer, type TestServer } from '../support/server';
import { credit, expectLedgerConsistent, idem } from '../support/trading';
import { enrolPasskey, enrolTotp, passkeyProof, stepUp, totpSecretOf } from '../support/two-factor';

/**
 * Two-factor sign-in. Passkeys (a software authenticator signs like a phone would) and
 * an authenticator app (codes computed from the secret the server gave), on both databases: a
 * replayed assertion, a foreign origin or RP id, a counter set back, a code used twice in its
 * window, a recovery code used twice, a storm of wrong codes — each refused; and with REQUIRE_2FA
 * a password alone opens no session that reads a balance or moves money.
 */

const PASSWORD = 'secret123';

describe.each(DIALECTS)('two-factor sign-in on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  const login = (phone: string, password = PASSWORD, device?: string) =>
    s.call('login', { body: { user: phone, password, ...(device ? { device } : {}) } });
  const inbox = async (token: string) =>
    (
      (await s.call('notificationList', { token })).body.data.rows as Array<{
        kind: string;
        params: { event: string };
      }>
    )
      .filter((r) => r.kind === 'security')
      .map((r) => r.params.event);

  it.runIf(enabled)('without factors the demo keeps SPEC: the password opens a full session', async () => {
    const u = await s.signUp();
    const again = await login(u.phone);
    expect(again.body.msg).toBe('ok');
    expect(again.body.data.second).toBeUndefined();
    expect((await s.call('balance', { token: again.body.data.token })).body.msg).toBe('ok');
  });

  it.runIf(enabled)(
    'a passkey: enrol, then sign in with password + passkey; the step opens nothing else',
    async () => {
      const u = await s.signUp();
      const auth = new SoftAuthenticator();
      const options = await s.call('passkeyOptions', { token: u.token });
      expect(options.body.data).toMatchObject({
        rp: { id: 'localhost' },
        authenticatorSelection: { userVerification: 'required' },
      });
      const added = await s.call('passkeyAdd', {
        token: u.token,
        body: { response: auth.register(options.body.data), name: '  Pixel 9  ' },
      });
      expect(added.body.msg, JSON.stringify(added.body)).toBe('ok');
      expect(added.body.data.passkey).toMatchObject({ name: 'Pixel 9', flagged: false, counter: 0 });
      // The first factor brings ten recovery codes, shown once; the session it was made in stays.
      expect(added.body.data.recovery_codes).toHaveLength(10);
      expect(added.body.data.session).toBeNull();
      expect(await inbox(u.token)).toContain('passkeyAdded');

      const step = await login(u.phone);
      expect(step.body.data.second).toMatchObject({ stage: 'verify', methods: ['passkey', 'recovery'] });
      const stepToken = step.body.data.token;
      for (const [call, body] of [
        ['balance', undefined],
        ['userInfo', undefined],
        ['securityState', undefined],
        ['passkeyOptions', {}],
      ] as const) {
        const refused = await s.call(call, { token: stepToken, ...(body ? { body } : {}) });
        expect(refused.status, call).toBe(401);
        expect(refused.body).toEqual({ msg: 'logout', data: 'errors.secondFactorRequired' });
      }
      const proof = await passkeyProof(s, stepToken, auth);
      const full = await s.call('secondFactor', { token: stepToken, body: { passkey: proof } });
      expect(full.body.msg, JSON.stringify(full.body)).toBe('ok');
      expect(full.body.data).toMatchObject({ id: u.id, user: u.phone });
      expect(full.body.data.second).toBeUndefined();
      expect((await s.call('balance', { token: full.body.data.token })).body.msg).toBe('ok');
      // The step's token ended with it.
      expect((await s.call('factorChallenge', { token: stepToken, body: {} })).status).toBe(401);
      // A replayed assertion (its challenge used up) is refused, whoever sends it.
      const step2 = await login(u.phone);
      const replay = await s.call('secondFactor', { token: step2.body.data.token, body: { passkey: proof } });
      expect(replay.body.data).toBe('errors.challengeExpired');
      const state = await s.call('securityState', { token: full.body.data.token });
      expect(state.body.data.passkeys[0]).toMatchObject({ counter: 1, flagged: false });
      expect(state.body.data.passkeys[0].last_used_at).toBeGreaterThan(0);
    },
  );

  it.runIf(enabled)(
    'an assertion for another origin or RP id, or without user verification, is refused',
    async () => {
      const u = await s.signUp();
      const auth = new SoftAuthenticator();
      await enrolPasskey(s, u.token, auth);
      await stepUp(s, u.token, { passkey: await passkeyProof(s, u.token, auth) });
      const reg = await s.call('passkeyOptions', { token: u.token, body: {} });
      const step = (await login(u.phone)).body.data.token;
      for (const bend of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { noUv: true }]) {
        const options = await s.call('factorChallenge', { token: step, body: {} });
        const res = await s.call('secondFactor', {
          token: step,
          body: { passkey: auth.assert(options.body.data, bend) },
        });
        expect(res.body.data, JSON.stringify(bend)).toBe('errors.passkeyRefused');
      }
      // A challenge never issued, and another account's passkey, are refused too.
      const stranger = new SoftAuthenticator();
      const forged = stranger.assert({ challenge: Buffer.from('made up').toString('base64url') });
      expect((await s.call('secondFactor', { token: step, body: { passkey: forged } })).body.data).toBe(
        'errors.challengeExpired',
      );
      const options = await s.call('factorChallenge', { token: step, body: {} });
      const foreign = await s.call('secondFactor', {
        token: step,
        body: { passkey: stranger.assert(options.body.data) },
      });
      expect(foreign.body.data).toBe('errors.passkeyUnknown');
      // A registration from another origin is refused as well (its options asked first, after the
      // step-up a second passkey needs, while the phone's attempts were left).
      const bad = await s.call('passkeyAdd', {
        token: u.token,
        body: {
          response: new SoftAuthenticator().register(reg.body.data, { origin: 'https://evil.example' }),
          name: 'x',
        },
      });
      expect(bad.body.data).toBe('errors.passkeyRefused');
      // Those five refusals used the phone's attempts; after the window the right one works.
      s.clock.advance(s.config.loginLimit.windowMs);
      const fresh = (await login(u.phone)).body.data.token;
      const ok = await s.call('secondFactor', {
        token: fresh,
        body: { passkey: await passkeyProof(s, fresh, auth) },
      });
      expect(ok.body.msg).toBe('ok');
    },
  );

  it.runIf(enabled)(
    'a signature counter going backwards flags the passkey (a copied authenticator)',
    async () => {
      const u = await s.signUp();
      const auth = new SoftAuthenticator();
      await enrolPasskey(s, u.token, auth);
      const first = (await login(u.phone)).body.data.token;
      await s.call('secondFactor', { token: first, body: { passkey: await passkeyProof(s, first, auth) } });
      const second = (await login(u.phone)).body.data.token;
      const ahead = await passkeyProof(s, second, auth); // counter 2
      expect((await s.call('secondFactor', { token: second, body: { passkey: ahead } })).body.msg).toBe('ok');
      // A clone still at counter 1 signs a fresh challenge.
      const third = (await login(u.phone)).body.data.token;
      const [forClone, forOriginal] = await Promise.all([
        s.call('factorChallenge', { token: third, body: {} }),
        s.call('factorChallenge', { token: third, body: {} }),
      ]);
      const cloned = await s.call('secondFactor', {
        token: third,
        body: { passkey: auth.assert(forClone.body.data, { counter: 1 }) },
      });
      expect(cloned.body.data).toBe('errors.passkeyFlagged');
      // Flagged: refused from now on, even signed with a counter that moved on; the user is told once.
      const later = await s.call('secondFactor', {
        token: third,
        body: { passkey: auth.assert(forOriginal.body.data) },
      });
      expect(later.body.data).toBe('errors.passkeyFlagged');
      const again = await login(u.phone);
      expect(again.body.data.second.methods).toEqual(['recovery']);
      expect((await s.call('factorChallenge', { token: again.body.data.token, body: {} })).body.data).toBe(
        'errors.passkeyNone',
      );
      expect((await inbox(u.token)).filter((e) => e === 'passkeyFlagged')).toHaveLength(1);
    },
  );

  it.runIf(enabled)(
    'an authenticator app: QR text and key, a code to confirm, each code good once',
    async () => {
      const u = await s.signUp();
      const setup = await s.call('totpSetup', { token: u.token, body: {} });
      expect(setup.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.body.data.uri).toMatch(
        new RegExp(`^otpauth://totp/Bourse:${u.phone}\\?.*secret=${setup.body.data.secret}`),
      );
      expect((await s.call('totpConfirm', { token: u.token, body: { code: '000000' } })).body.data).toMatch(
        /^errors\.code(Wrong|Used)$/,
      );
      const code = totpCode(setup.body.data.secret, s.clock.now());
      const confirmed = await s.call('totpConfirm', { token: u.token, body: { code } });
      expect(confirmed.body.data.recovery_codes).toHaveLength(10);
      // The secret is sealed in the database, never stored as given.
      const row = await s.deps.database.db
        .selectFrom('factor_totp')
        .select('secret')
        .where('owner', '=', `user:${u.id}`)
        .executeTakeFirstOrThrow();
      expect(row.secret).not.toContain(setup.body.data.secret);
      // A second setup while one is on is refused.
      expect((await s.call('totpSetup', { token: u.token, body: {} })).body.data).toBe(
        'errors.totpAlreadyOn',
      );

      const step = (await login(u.phone)).body.data.token;
      // The confirming code was accepted in this step: it is not good again.
      expect((await s.call('secondFactor', { token: step, body: { code } })).body.data).toBe(
        'errors.codeUsed',
      );
      s.clock.advance(30_000);
      const next = totpCode(setup.body.data.secret, s.clock.now());
      const full = await s.call('secondFactor', {
        token: step,
        body: { code: `${next.slice(0, 3)} ${next.slice(3)}` },
      });
      expect(full.body.msg, JSON.stringify(full.body)).toBe('ok');
      // The same code within its window, on another sign-in: refused.
      const step2 = (await login(u.phone)).body.data.token;
      expect((await s.call('secondFactor', { token: step2, body: { code: next } })).body.data).toBe(
        'errors.codeUsed',
      );
      // Two requests racing with one fresh code: one wins.
      s.clock.advance(30_000);
      const fresh = totpCode(setup.body.data.secret, s.clock.now());
      const step3 = (await login(u.phone)).body.data.token;
      const race = await Promise.all([
        s.call('secondFactor', { token: step2, body: { code: fresh } }),
        s.call('secondFactor', { token: step3, body: { code: fresh } }),
      ]);
      expect(race.filter((r) => r.body.msg === 'ok')).toHaveLength(1);
      expect(race.filter((r) => r.body.data === 'errors.codeUsed')).toHaveLength(1);
    },
  );

  it.runIf(enabled)('recovery codes: each opens once, and the user is told', async () => {
    const u = await s.signUp();
    const { codes } = await enrolTotp(s, u.token);
    const code = codes![3]!;
    const step = (await login(u.phone)).body.data.token;
    // Typed loosely (upper case, no dash) it is the same code.
    const used = await s.call('secondFactor', {
      token: step,
      body: { recovery: code.toUpperCase().replace('-', ' ') },
    });
    expect(used.body.msg, JSON.stringify(used.body)).toBe('ok');
    const step2 = (await login(u.phone)).body.data.token;
    expect((await s.call('secondFactor', { token: step2, body: { recovery: code } })).body.data).toBe(
      'errors.recoveryWrong',
    );
    // Racing with one unused code: exactly one sign-in.
    const steps = await Promise.all([login(u.phone), login(u.phone), login(u.phone)]);
    const race = await Promise.all(
      steps.map((st) =>
        s.call('secondFactor', { token: st.body.data.token, body: { recovery: codes![5]! } }),
      ),
    );
    expect(race.filter((r) => r.body.msg === 'ok')).toHaveLength(1);
    const state = await s.call('securityState', { token: used.body.data.token });
    expect(state.body.data.recovery_left).toBe(8);
    expect((await inbox(u.token)).filter((e) => e === 'recoveryUsed')).toHaveLength(2);
    // A new set replaces the old (a proof is needed).
    const renewed = await s.call('recoveryRenew', {
      token: u.token,
      body: { code: totpCode((await totpSecretOf(s, u.id))!, s.clock.now() + 30_000) },
    });
    expect(renewed.body.data.recovery_codes).toHaveLength(10);
    const step3 = (await login(u.phone)).body.data.token;
    expect((await s.call('secondFactor', { token: step3, body: { recovery: codes![7]! } })).body.data).toBe(
      'errors.recoveryWrong',
    );
  });

  it.runIf(enabled)("wrong codes lock the account's second factor, however many arrive at once", async () => {
    const u = await s.signUp();
    const { secret } = await enrolTotp(s, u.token);
    const step = (await login(u.phone)).body.data.token;
    const right = totpCode(secret, s.clock.now() + 30_000);
    const wrong = right === '123456' ? '654321' : '123456';
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => s.call('secondFactor', { token: step, body: { code: wrong } })),
    );
    const limit = s.config.factorLimit.perAccount;
    expect(answers.filter((a) => a.body.data === 'errors.codeWrong')).toHaveLength(limit);
    expect(answers.filter((a) => a.body.data === 'errors.tooManyAttempts')).toHaveLength(30 - limit);
    // Locked: the right code waits for the window (the password keeps a count of its own:
    // tests/server/factor-guesses.test.ts).
    s.clock.advance(30_000);
    expect((await s.call('secondFactor', { token: step, body: { code: right } })).body.data).toBe(
      'errors.tooManyAttempts',
    );
    s.clock.advance(s.config.factorLimit.windowMs);
    const step2 = (await login(u.phone)).body.data.token;
    const ok = await s.call('secondFactor', {
      token: step2,
      body: { code: totpCode(secret, s.clock.now()) },
    });
    expect(ok.body.msg, JSON.stringify(ok.body)).toBe('ok');
  });

  it.runIf(enabled)('removing a factor needs a second factor and ends the other sessions', async () => {
    const u = await s.signUp();
    const auth = new SoftAuthenticator();
    const passkeyId = await enrolPasskey(s, u.token, auth);
    // A second factor is added only with a proof of the first.
    const { secret } = await enrolTotp(s, u.token, { passkey: await passkeyProof(s, u.token, auth) });
    const other = (
      await s.call('secondFactor', {
        token: (await login(u.phone)).body.data.token,
        body: { code: totpCode(secret, s.clock.now() + 30_000) },
      })
    ).body.data.token;
    s.clock.advance(60_000);
    expect((await s.call('passkeyRemove', { token: u.token, body: { id: passkeyId } })).body.data).toBe(
      'errors.proofMissing',
    );
    expect(
      (await s.call('passkeyRemove', { token: u.token, body: { id: passkeyId, code: '000000' } })).body.data,
    ).toMatch(/^errors\.code(Wrong|Used)$/);
    const removed = await s.call('passkeyRemove', {
      token: u.token,
      body: { id: passkeyId, passkey: await passkeyProof(s, u.token, auth) },
    });
    expect(removed.body.msg, JSON.stringify(removed.body)).toBe('ok');
    expect((await s.call('balance', { token: other })).status).toBe(401);
    expect((await s.call('balance', { token: u.token })).body.msg).toBe('ok');
    expect(await inbox(u.token)).toEqual(
      expect.arrayContaining(['passkeyAdded', 'totpAdded', 'passkeyRemoved']),
    );
    // The app goes too; with no factor left the recovery codes go with it and the password is enough again.
    const off = await s.call('totpRemove', {
      token: u.token,
      body: { code: totpCode(secret, s.clock.now()) },
    });
    expect(off.body.msg, JSON.stringify(off.body)).toBe('ok');
    const state = await s.call('securityState', { token: u.token });
    expect(state.body.data).toMatchObject({ passkeys: [], totp: false, recovery_left: 0 });
    expect((await login(u.phone)).body.data.second).toBeUndefined();
  });

  it.runIf(enabled)(
    'a sign-in from a new device is told; the first device and a known one are not',
    async () => {
      const phone = freshPhone();
      await s.call('register', { body: { user: phone, password: PASSWORD, code: s.config.inviteCode } });
      const first = (await login(phone, PASSWORD, 'device-aaaa-1111')).body.data.token;
      await login(phone, PASSWORD, 'device-aaaa-1111');
      expect(await inbox(first)).toEqual([]);
      await login(phone, PASSWORD, 'device-bbbb-2222');
      expect(await inbox(first)).toEqual(['newDevice']);
    },
  );

  it.runIf(enabled)(
    'a security notice names the device and the address it came from, as the server saw them',
    async () => {
      const phone = freshPhone();
      await s.call('register', { body: { user: phone, password: PASSWORD, code: s.config.inviteCode } });
      const first = (await login(phone, PASSWORD, 'device-cccc-3333')).body.data.token;
      const android =
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
      const signedIn = await s.call('login', {
        body: { user: phone, password: PASSWORD, device: 'device-dddd-4444' },
        headers: { 'user-agent': android },
      });
      expect(signedIn.body.msg).toBe('ok');
      // A change made from a session: the caller's own request (its agent, its address).
      const iphone =
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
      const setup = await s.call('totpSetup', { token: first, body: {}, headers: { 'user-agent': iphone } });
      const code = totpCode(setup.body.data.secret, s.clock.now());
      const confirmed = await s.call('totpConfirm', {
        token: first,
        body: { code },
        headers: { 'user-agent': iphone },
      });
      expect(confirmed.body.msg).toBe('ok');
      const rows = (await s.call('notificationList', { token: first })).body.data.rows as Array<{
        kind: string;
        params: Record<string, unknown>;
      }>;
      const security = rows.filter((r) => r.kind === 'security').map((r) => r.params);
      // inject's requests come from 127.0.0.1: the address is the server's, no place is guessed.
      expect(security).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ event: 'newDevice', device: 'Chrome on Android', address: '127.0.0.1' }),
          expect.objectContaining({ event: 'totpAdded', device: 'Safari on iPhone', address: '127.0.0.1' }),
        ]),
      );
    },
  );

  it.runIf(enabled)('the app lock opens online with the password or a passkey', async () => {
    const u = await s.signUp();
    const auth = new SoftAuthenticator();
    await enrolPasskey(s, u.token, auth);
    expect((await s.call('unlock', { token: u.token, body: { password: 'wrong-one' } })).body.data).toBe(
      'errors.invalidCredentials',
    );
    expect((await s.call('unlock', { token: u.token, body: { password: PASSWORD } })).body.msg).toBe('ok');
    const proof = await passkeyProof(s, u.token, auth);
    expect((await s.call('unlock', { token: u.token, body: { passkey: proof } })).body.msg).toBe('ok');
    expect((await s.call('unlock', { token: u.token, body: { passkey: proof } })).body.data).toBe(
      'errors.challengeExpired',
    );
  });
});

describe.each(DIALECTS)('production with REQUIRE_2FA on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { REQUIRE_2FA: '1' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  /** Registered only: no factor yet (`signUp` would set one up). */
  const register = async () => {
    const phone = freshPhone();
    const reg = await s.call('register', {
      body: { user: phone, password: PASSWORD, code: s.config.inviteCode },
    });
    return { id: reg.body.data.id as number, phone };
  };

  it.runIf(enabled)('SPEC login alone gives no session that reads a balance or moves money', async () => {
    expect(s.config.twoFactor.required).toBe(true);
    const u = await register();
    await credit(s, u.id, 10_000_000);
    const step = await s.call('login', { body: { user: u.phone, password: PASSWORD } });
    expect(step.body.msg).toBe('ok');
    expect(step.body.data.second).toMatchObject({ stage: 'enrol', methods: ['passkey', 'totp'] });
    const token = step.body.data.token;
    const reads = ['balance', 'userInfo', 'bill', 'holdings', 'orderList', 'portfolioSummary'] as const;
    for (const call of reads) {
      const res = await s.call(call, { token, query: call === 'holdings' ? { type: 'stock' } : {} });
      expect(res.status, call).toBe(401);
      expect(res.body.data).toBe('errors.secondFactorRequired');
    }
    const moves = await Promise.all([
      s.call('recharge', { token, body: { count: 5000 }, headers: idem() }),
      s.call('dealBuy', {
        token,
        body: { tag: 'RELIANCE.NS', count: 1, price: 2500, mold: 'stock' },
        headers: idem(),
      }),
      s.call('loanApply', { token, body: { count: 1000 }, headers: idem() }),
      s.call('passwordUp', { token, body: { password: PASSWORD, password_new: 'another1' } }),
    ]);
    for (const res of moves) expect(res.body.data).toBe('errors.secondFactorRequired');
    // It can set up a factor, and doing so gives the full session.
    const state = await s.call('securityState', { token });
    expect(state.body.data).toMatchObject({ required: true, passkeys: [], totp: false });
    const enrolled = await enrolTotp(s, token);
    expect(enrolled.codes).toHaveLength(10);
    const full = enrolled.session!.token;
    expect((await s.call('balance', { token: full })).body.data.balance).toBe('100000.00');
    expect((await s.call('balance', { token })).status).toBe(401);
    // The last factor cannot be removed while 2FA is required.
    s.clock.advance(30_000);
    const secret = enrolled.secret;
    expect(
      (await s.call('totpRemove', { token: full, body: { code: totpCode(secret, s.clock.now()) } })).body
        .data,
    ).toBe('errors.lastFactor');
    // From now on: password, then the app's code.
    const next = await s.call('login', { body: { user: u.phone, password: PASSWORD } });
    expect(next.body.data.second).toMatchObject({ stage: 'verify', methods: ['totp', 'recovery'] });
    // A verify step cannot enrol a factor of its own (a stolen password must not add one).
    for (const call of ['totpSetup', 'passkeyOptions'] as const) {
      expect((await s.call(call, { token: next.body.data.token, body: {} })).body.data).toBe(
        'errors.secondFactorRequired',
      );
    }
    const done = await s.call('secondFactor', {
      token: next.body.data.token,
      body: { code: totpCode(secret, s.clock.now()) },
    });
    expect(done.body.msg, JSON.stringify(done.body)).toBe('ok');
  });

  it.runIf(enabled)('a step session ends after its time, unused', async () => {
    const u = await register();
    const step = (await s.call('login', { body: { user: u.phone, password: PASSWORD } })).body.data.token;
    expect((await s.call('securityState', { token: step })).body.msg).toBe('ok');
    s.clock.advance(s.config.twoFactor.stepTtlMs + 1);
    const res = await s.call('securityState', { token: step });
    expect(res.status).toBe(401);
    expect(res.body.data).toBe('errors.sessionExpired');
  });
});
