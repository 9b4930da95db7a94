import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/factors/index';
import { SoftAuthenticator } from '../support/authenticator';
import { DIALECTS, freshPhone, startTestServer, type TestServer } from '../support/server';
import { credit, expectLedgerConsistent, idem } from '../support/trading';
import { enrolPasskey, enrolTotp, nextCode, passkeyProof, stepUp, totpSecretOf } from '../support/two-factor';

/**
 * The attacks of the report, re-run as named tests on both databases.
 * A thief holds a copy of the owner's session token or their password;
 * each attack is refused, the owner's factors stay, and the change a thief could still make is
 * shown on the owner's other devices and holds withdrawals for a day.
 */

const PASSWORD = 'secret123';

describe.each(DIALECTS)('a stolen session on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  const login = (phone: string, device: string) =>
    s.call('login', { body: { user: phone, password: PASSWORD, device } });

  /** The owner: an authenticator app, signed in on their phone; the thief copied that session's token. */
  async function owner() {
    const u = await s.signUp();
    const { secret, codes } = await enrolTotp(s, u.token);
    const step = (await login(u.phone, 'owner-phone-1')).body.data.token;
    const onPhone = (await s.call('secondFactor', { token: step, body: { code: nextCode(s, secret) } })).body
      .data.token as string;
    return { ...u, secret, codes: codes!, onPhone };
  }

  it.runIf(enabled)(
    'finding 1: a copied session cannot add a passkey, turn off the app or renew the codes',
    async () => {
      const o = await owner();
      const stolen = o.onPhone;
      const thief = new SoftAuthenticator();
      // passkey/options + passkey/add with a scripted authenticator: no proof, no passkey.
      const options = await s.call('passkeyOptions', { token: stolen, body: {} });
      expect(options.status).toBe(403);
      expect(options.body.data).toBe('errors.stepUpRequired');
      // Neither a challenge of its own making nor one made up goes through.
      const made = thief.register({ challenge: Buffer.from('made up').toString('base64url') });
      expect(
        (await s.call('passkeyAdd', { token: stolen, body: { response: made, name: 'Mine' } })).body.data,
      ).toBe('errors.challengeExpired');
      // A step-up needs a factor the thief does not have.
      expect((await s.call('stepUp', { token: stolen, body: {} })).body.data).toBe('errors.proofMissing');
      expect((await s.call('stepUp', { token: stolen, body: { code: '000000' } })).body.data).toMatch(
        /^errors\.code(Wrong|Used)$/,
      );
      // totp/remove and recovery/renew without the owner's factor: refused.
      expect((await s.call('totpRemove', { token: stolen, body: {} })).body.data).toBe('errors.proofMissing');
      expect((await s.call('recoveryRenew', { token: stolen, body: { code: '000000' } })).body.data).toMatch(
        /^errors\.code(Wrong|Used)$/,
      );
      // The owner's factors and codes are as they were; their other session still works.
      const state = await s.call('securityState', { token: o.token });
      expect(state.body.data).toMatchObject({ passkeys: [], totp: true, recovery_left: 10 });
      expect((await s.call('balance', { token: o.token })).body.msg).toBe('ok');
      const next = (await login(o.phone, 'owner-laptop-1')).body.data.second;
      expect(next.methods).toEqual(['totp', 'recovery']);
    },
  );

  it.runIf(enabled)(
    'finding 1: a factor added in the last 24 h cannot remove an older one; a recovery code can, and is shown as used',
    async () => {
      const o = await owner();
      const auth = new SoftAuthenticator();
      // The owner adds a passkey — with a proof of the app they already had.
      const passkeyId = await enrolPasskey(s, o.onPhone, auth, { code: nextCode(s, o.secret) });
      s.clock.advance(3600_000);
      // The young passkey cannot turn the older app off, nor renew the older codes.
      const off = await s.call('totpRemove', {
        token: o.onPhone,
        body: { passkey: await passkeyProof(s, o.onPhone, auth) },
      });
      expect(off.status).toBe(403);
      expect(off.body.data).toBe('errors.factorTooNew');
      const renew = await s.call('recoveryRenew', {
        token: o.onPhone,
        body: { passkey: await passkeyProof(s, o.onPhone, auth) },
      });
      expect(renew.body.data).toBe('errors.factorTooNew');
      // The older app may remove the younger passkey, and a recovery code the older app.
      expect((await s.call('securityState', { token: o.onPhone })).body.data.totp).toBe(true);
      const byCode = await s.call('totpRemove', { token: o.onPhone, body: { recovery: o.codes[0]! } });
      expect(byCode.body.msg, JSON.stringify(byCode.body)).toBe('ok');
      const state = await s.call('securityState', { token: o.onPhone });
      expect(state.body.data).toMatchObject({ totp: false, recovery_left: 9 });
      expect(state.body.data.passkeys.map((p: { id: number }) => p.id)).toEqual([passkeyId]);
    },
  );

  it.runIf(enabled)('finding 1: after 24 hours the passkey has settled and may renew the codes', async () => {
    const o = await owner();
    const auth = new SoftAuthenticator();
    await enrolPasskey(s, o.onPhone, auth, { code: nextCode(s, o.secret) });
    s.clock.advance(s.config.twoFactor.settleMs);
    const renew = await s.call('recoveryRenew', {
      token: o.onPhone,
      body: { passkey: await passkeyProof(s, o.onPhone, auth) },
    });
    expect(renew.body.msg, JSON.stringify(renew.body)).toBe('ok');
    expect(renew.body.data.recovery_codes).toHaveLength(10);
  });

  it.runIf(enabled)(
    "finding 1: a factor change shows on the other devices' next sign-in until acknowledged",
    async () => {
      const o = await owner();
      const auth = new SoftAuthenticator();
      const laptopStep = (await login(o.phone, 'owner-laptop-2')).body.data.token;
      const laptop = (
        await s.call('secondFactor', { token: laptopStep, body: { code: nextCode(s, o.secret) } })
      ).body.data.token as string;
      // A new device is shown the app set up at sign-up, elsewhere; acknowledged, it is gone.
      const before = (await s.call('securityChanges', { token: laptop })).body.data;
      expect(before.map((c: { event: string }) => c.event)).toEqual(['totpAdded']);
      await s.call('securityChangesSeen', { token: laptop, body: { up_to: before[0].at } });
      expect((await s.call('securityChanges', { token: laptop })).body.data).toEqual([]);
      // A passkey is added on the phone (with a proof: it could be a thief's, holding one code).
      await enrolPasskey(s, o.onPhone, auth, { code: nextCode(s, o.secret) });
      const shown = await s.call('securityChanges', { token: laptop });
      expect(shown.body.data).toEqual([
        expect.objectContaining({ event: 'passkeyAdded', from: 'Browser', address: '127.0.0.1' }),
      ]);
      // Not on the device it was made on (which was shown only the sign-up's, from elsewhere).
      const onPhone = (await s.call('securityChanges', { token: o.onPhone })).body.data;
      expect(onPhone.map((c: { event: string }) => c.event)).toEqual(['totpAdded']);
      // Still there on the laptop's next sign-in, until the laptop acknowledges it.
      const again = (await login(o.phone, 'owner-laptop-2')).body.data.token;
      const full = (await s.call('secondFactor', { token: again, body: { code: nextCode(s, o.secret) } }))
        .body.data.token as string;
      const change = (await s.call('securityChanges', { token: full })).body.data[0];
      expect(change.event).toBe('passkeyAdded');
      expect(
        (await s.call('securityChangesSeen', { token: full, body: { up_to: change.at } })).body.msg,
      ).toBe('ok');
      expect((await s.call('securityChanges', { token: full })).body.data).toEqual([]);
      // A device never seen before is shown them too (the owner on a new phone).
      const fresh = (await login(o.phone, 'owner-tablet-1')).body.data.token;
      const tablet = (await s.call('secondFactor', { token: fresh, body: { code: nextCode(s, o.secret) } }))
        .body.data.token as string;
      const onTablet = (await s.call('securityChanges', { token: tablet })).body.data;
      expect(onTablet.map((c: { event: string }) => c.event)).toEqual(['passkeyAdded', 'totpAdded']);
    },
  );

  it.runIf(enabled)(
    'finding 3: a passkey begun before the account had a factor cannot be added after, even in the same session',
    async () => {
      const u = await s.signUp();
      const auth = new SoftAuthenticator();
      const options = await s.call('passkeyOptions', { token: u.token, body: {} });
      expect(options.body.msg).toBe('ok');
      await enrolTotp(s, u.token);
      const late = await s.call('passkeyAdd', {
        token: u.token,
        body: { response: auth.register(options.body.data), name: 'Late' },
      });
      expect(late.status).toBe(409);
      expect(late.body.data).toBe('errors.enrolEnded');
      expect((await s.call('securityState', { token: u.token })).body.data.passkeys).toEqual([]);
    },
  );

  it.runIf(enabled)('finding 1: after a factor change a withdrawal waits a day for a person', async () => {
    const o = await owner();
    await credit(s, o.id, 1_000_000);
    // A day old card, so only the security change holds the payout.
    await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
    await s.call('passwordUp', {
      token: o.onPhone,
      body: { type: 'transaction', is_first: true, fund_code_new: '246810' },
    });
    await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
    const card = await s.call('bankAdd', {
      token: o.onPhone,
      body: {
        bank: 'HDFC Bank',
        branch_bank: 'Andheri East',
        bank_card: `5012${String(Date.now()).slice(-8)}31`,
        bank_user: 'Asha Rao',
        ifsc: 'HDFC0000123',
        stock_password: '246810',
      },
    });
    expect(card.body.msg, JSON.stringify(card.body)).toBe('ok');
    s.clock.advance(s.config.newCardHoldMs);
    await enrolPasskey(s, o.onPhone, new SoftAuthenticator(), { code: nextCode(s, o.secret) });
    const withdraw = async () => {
      await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
      return s.call('withdraw', {
        token: o.onPhone,
        body: { bank_id: card.body.data.id, count: 500, stock_password: '246810' },
        headers: idem(),
      });
    };
    const held = await withdraw();
    expect(held.body.msg, JSON.stringify(held.body)).toBe('ok');
    expect(held.body.data.hold).toBe('wallet.hold.securityChange');
    s.clock.advance(s.config.twoFactor.settleMs);
    const paid = await withdraw();
    expect(paid.body.data.hold).toBeNull();
  });

  /** A card as the bank-card form sends it; `number` unique per test. */
  const cardBody = (number: string, extra: Record<string, string> = {}) => ({
    bank: 'HDFC Bank',
    branch_bank: 'Andheri East',
    bank_card: number,
    bank_user: 'Asha Rao',
    ifsc: 'HDFC0000123',
    stock_password: '246810',
    ...extra,
  });

  it.runIf(enabled)(
    'finding 5: a copied session with the transaction password moves no money and changes no card or password',
    async () => {
      const o = await owner();
      const code = () => ({ code: nextCode(s, o.secret) });
      await credit(s, o.id, 1_000_000);
      // The owner sets things up, each change with a fresh proof of the app.
      await stepUp(s, o.onPhone, code());
      const first = await s.call('passwordUp', {
        token: o.onPhone,
        body: { type: 'transaction', is_first: true, fund_code_new: '246810' },
      });
      expect(first.body.msg, JSON.stringify(first.body)).toBe('ok');
      await stepUp(s, o.onPhone, code());
      const card = await s.call('bankAdd', {
        token: o.onPhone,
        body: cardBody(`5012${String(Date.now()).slice(-8)}51`),
      });
      expect(card.body.msg, JSON.stringify(card.body)).toBe('ok');
      s.clock.advance(s.config.twoFactor.settleMs);

      // The thief holds the session and the 6-digit transaction password: each change is refused.
      const stolen = o.onPhone;
      const key = idem();
      const refusals = await Promise.all([
        s.call('bankAdd', { token: stolen, body: cardBody(`5012${String(Date.now()).slice(-8)}61`) }),
        s.call('bankEdit', {
          token: stolen,
          body: { id: card.body.data.id, ...cardBody(`5012${String(Date.now()).slice(-8)}71`) },
        }),
        s.call('withdraw', {
          token: stolen,
          body: { bank_id: card.body.data.id, count: 900, stock_password: '246810' },
          headers: key,
        }),
        s.call('passwordUp', { token: stolen, body: { password: PASSWORD, password_new: 'thief123' } }),
      ]);
      for (const r of refusals) {
        expect(r.status).toBe(403);
        expect(r.body.data).toBe('errors.stepUpRequired');
      }
      const rows = await s.deps.database.db
        .selectFrom('withdrawals')
        .select('id')
        .where('user_id', '=', o.id)
        .execute();
      expect(rows).toEqual([]);
      expect((await s.call('bankList', { token: stolen })).body.data).toHaveLength(1);
      expect((await s.call('balance', { token: stolen })).body.data.balance).toBe('10000.00');
      const oldPassword = await s.call('login', { body: { user: o.phone, password: PASSWORD } });
      expect(oldPassword.body.msg).toBe('ok');

      // The owner proves the app once: the same call (same key: the refusal was not kept) goes through…
      await stepUp(s, o.onPhone, code());
      const paid = await s.call('withdraw', {
        token: o.onPhone,
        body: { bank_id: card.body.data.id, count: 900, stock_password: '246810' },
        headers: key,
      });
      expect(paid.body.msg, JSON.stringify(paid.body)).toBe('ok');
      // …a retry of it is the same answer without another proof…
      const replay = await s.call('withdraw', {
        token: o.onPhone,
        body: { bank_id: card.body.data.id, count: 900, stock_password: '246810' },
        headers: key,
      });
      expect(replay.headers['idempotent-replay']).toBe('true');
      expect(replay.body.data.id).toBe(paid.body.data.id);
      // …and the next withdrawal needs a proof of its own.
      const again = await s.call('withdraw', {
        token: o.onPhone,
        body: { bank_id: card.body.data.id, count: 100, stock_password: '246810' },
        headers: idem(),
      });
      expect(again.body.data).toBe('errors.stepUpRequired');
      expect((await s.call('balance', { token: o.onPhone })).body.data.balance).toBe('9100.00');
    },
  );

  it.runIf(enabled)(
    'finding 5: one proof is one change; a change refused for its input keeps the proof',
    async () => {
      const o = await owner();
      await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
      // The first transaction password, after the proof; a second change needs another.
      expect(
        (
          await s.call('passwordUp', {
            token: o.onPhone,
            body: { type: 'transaction', is_first: true, fund_code_new: '246810' },
          })
        ).body.msg,
      ).toBe('ok');
      const number = `5012${String(Date.now()).slice(-8)}81`;
      expect((await s.call('bankAdd', { token: o.onPhone, body: cardBody(number) })).body.data).toBe(
        'errors.stepUpRequired',
      );
      await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
      // A bad branch code is the input's fault: refused, and the proof is still there for the fix.
      expect(
        (await s.call('bankAdd', { token: o.onPhone, body: cardBody(number, { ifsc: 'nope' }) })).body.data,
      ).toBe('errors.ifscInvalid');
      expect((await s.call('bankAdd', { token: o.onPhone, body: cardBody(number) })).body.msg).toBe('ok');
      // A proof is fresh for STEP_UP_MS only.
      await stepUp(s, o.onPhone, { code: nextCode(s, o.secret) });
      s.clock.advance(s.config.twoFactor.stepUpMs);
      const late = await s.call('passwordUp', {
        token: o.onPhone,
        body: { password: PASSWORD, password_new: 'another1' },
      });
      expect(late.body.data).toBe('errors.stepUpRequired');
      // An account without a factor keeps SPEC: nothing to prove.
      const plain = await s.signUp();
      const changed = await s.call('passwordUp', {
        token: plain.token,
        body: { password: PASSWORD, password_new: 'another1' },
      });
      expect(changed.body.msg).toBe('ok');
    },
  );
});

describe.each(DIALECTS)('a known password, with REQUIRE_2FA on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { REQUIRE_2FA: '1', LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  /** Registered only: no factor yet; two password-only enrolment steps, the owner's and a thief's. */
  async function twoSteps() {
    const phone = freshPhone();
    await s.call('register', { body: { user: phone, password: PASSWORD, code: s.config.inviteCode } });
    const step = async () => (await s.call('login', { body: { user: phone, password: PASSWORD } })).body.data;
    const ownerStep = await step();
    const thiefStep = await step();
    expect(thiefStep.second.stage).toBe('enrol');
    return { phone, owner: ownerStep.token as string, thief: thiefStep.token as string };
  }

  it.runIf(enabled)(
    'finding 3: an old enrol step cannot add a passkey once the owner set up a factor',
    async () => {
      const { owner, thief } = await twoSteps();
      const auth = new SoftAuthenticator();
      const options = await s.call('passkeyOptions', { token: thief, body: {} });
      expect(options.body.msg).toBe('ok');
      const { session } = await enrolTotp(s, owner);
      expect(session).not.toBeNull();
      // The thief's step ended with the owner's enrolment, and its challenge with it.
      const added = await s.call('passkeyAdd', {
        token: thief,
        body: { response: auth.register(options.body.data), name: 'Mine' },
      });
      expect(added.status).toBe(401);
      const state = await s.call('securityState', { token: session!.token });
      expect(state.body.data).toMatchObject({ passkeys: [], totp: true });
    },
  );

  it.runIf(enabled)(
    'finding 3: a challenge begun before the account had a factor cannot finish after, even in the same session',
    async () => {
      const { owner } = await twoSteps();
      const auth = new SoftAuthenticator();
      const options = await s.call('passkeyOptions', { token: owner, body: {} });
      // In the same step, an app is set up first (the step becomes a full session)…
      const { session } = await enrolTotp(s, owner);
      const full = session!.token;
      // …and a passkey begun before it, without a proof, is refused now — in the full session too.
      const late = await s.call('passkeyAdd', {
        token: full,
        body: { response: auth.register(options.body.data), name: 'Late' },
      });
      expect(late.body.data).toBe('errors.challengeExpired');
      expect((await s.call('securityState', { token: full })).body.data.passkeys).toEqual([]);
    },
  );

  it.runIf(enabled)(
    "finding 3: a second enrol step cannot replace the owner's pending app secret, nor confirm it",
    async () => {
      const { owner, thief } = await twoSteps();
      const setup = await s.call('totpSetup', { token: owner, body: {} });
      expect(setup.body.msg).toBe('ok');
      const replaced = await s.call('totpSetup', { token: thief, body: {} });
      expect(replaced.status).toBe(409);
      expect(replaced.body.data).toBe('errors.totpPending');
      // The owner's secret is bound to the owner's step: the thief cannot confirm it, even knowing a code.
      const code = totpCode(setup.body.data.secret, s.clock.now());
      expect((await s.call('totpConfirm', { token: thief, body: { code } })).body.data).toBe(
        'errors.totpNotSetUp',
      );
      const confirmed = await s.call('totpConfirm', { token: owner, body: { code } });
      expect(confirmed.body.msg, JSON.stringify(confirmed.body)).toBe('ok');
      // The owner's setup ended the thief's step.
      expect((await s.call('securityState', { token: thief })).status).toBe(401);
    },
  );

  it.runIf(enabled)(
    'finding 4: forgot password with the password alone resets nothing; with a code it resets and holds withdrawals',
    async () => {
      const o = await s.signUp();
      const appSecret = (await totpSecretOf(s, o.id))!;
      const forget = (extra: Record<string, string> = {}) =>
        s.call('forget', {
          body: { user: o.phone, password: PASSWORD, new_password: 'another1', ...extra },
        });
      // The password alone: refused, and nothing changed — the owner's session and password work.
      const alone = await forget();
      expect(alone.status).toBe(400);
      expect(alone.body.data).toBe('errors.resetNeedsFactor');
      expect((await s.call('balance', { token: o.token })).body.msg).toBe('ok');
      const stillOld = await s.call('login', { body: { user: o.phone, password: PASSWORD } });
      expect(stillOld.body.data.second.stage).toBe('verify');
      // A wrong code: refused as a wrong code.
      expect((await forget({ code: '000000' })).body.data).toMatch(/^errors\.code(Wrong|Used)$/);
      expect((await s.call('balance', { token: o.token })).body.msg).toBe('ok');
      // With the app's code: reset, every session ended, the reset recorded.
      const done = await forget({ code: nextCode(s, appSecret), device: 'owner-reset-1' });
      expect(done.body.msg, JSON.stringify(done.body)).toBe('ok');
      expect((await s.call('balance', { token: o.token })).status).toBe(401);
      const step = (await s.call('login', { body: { user: o.phone, password: 'another1' } })).body.data.token;
      const full = (await s.call('secondFactor', { token: step, body: { code: nextCode(s, appSecret) } }))
        .body.data.token as string;
      const changes = (await s.call('securityChanges', { token: full })).body.data;
      expect(changes.map((c: { event: string }) => c.event)).toContain('passwordReset');
      // The reset holds withdrawals for a day (the card is a day old: only the reset holds it).
      await credit(s, o.id, 1_000_000);
      await stepUp(s, full, { code: nextCode(s, appSecret) });
      await s.call('passwordUp', {
        token: full,
        body: { type: 'transaction', is_first: true, fund_code_new: '246810' },
      });
      await stepUp(s, full, { code: nextCode(s, appSecret) });
      const card = await s.call('bankAdd', {
        token: full,
        body: {
          bank: 'HDFC Bank',
          branch_bank: 'Andheri East',
          bank_card: `5012${String(Date.now()).slice(-8)}41`,
          bank_user: 'Asha Rao',
          ifsc: 'HDFC0000123',
          stock_password: '246810',
        },
      });
      expect(card.body.msg, JSON.stringify(card.body)).toBe('ok');
      await s.deps.database.db
        .updateTable('bank_cards')
        .set((eb) => ({
          created_at: eb('created_at', '-', s.config.newCardHoldMs),
          updated_at: eb('updated_at', '-', s.config.newCardHoldMs),
        }))
        .where('id', '=', card.body.data.id)
        .execute();
      await stepUp(s, full, { code: nextCode(s, appSecret) });
      const held = await s.call('withdraw', {
        token: full,
        body: { bank_id: card.body.data.id, count: 500, stock_password: '246810' },
        headers: idem(),
      });
      expect(held.body.data.hold).toBe('wallet.hold.securityChange');
    },
  );

  it.runIf(enabled)('finding 4: a recovery code resets the password too, and is used up', async () => {
    const phone = freshPhone();
    await s.call('register', { body: { user: phone, password: PASSWORD, code: s.config.inviteCode } });
    const step = (await s.call('login', { body: { user: phone, password: PASSWORD } })).body.data.token;
    const { codes } = await enrolTotp(s, step);
    const reset = await s.call('forget', {
      body: { user: phone, password: PASSWORD, new_password: 'another1', recovery: codes![2]! },
    });
    expect(reset.body.msg, JSON.stringify(reset.body)).toBe('ok');
    const again = await s.call('forget', {
      body: { user: phone, password: 'another1', new_password: 'third123', recovery: codes![2]! },
    });
    expect(again.body.data).toBe('errors.recoveryWrong');
  });
});
