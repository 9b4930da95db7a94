import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/factors/index';
import { SoftAuthenticator } from '../support/authenticator';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { enrolledMember, opsCall, STAFF_PASSWORD } from '../support/staff';
import { enrolPasskey, enrolTotp, nextCode } from '../support/two-factor';

/**
 * Second-factor guesses counted per account (and per member of staff) apart
 * from passwords, cleared by time only. The attack: sign in with the known password, four wrong
 * codes, sign in again (a right password used to clear the shared count), repeat — it must stop at
 * the account's limit within the window, with the right code refused too until the window passes.
 * The address limit is raised, as behind a carrier's NAT, so only the account's count can stop it.
 */

const PASSWORD = 'secret123';

describe.each(DIALECTS)('second-factor guesses on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  const login = async (phone: string) => {
    const r = await s.call('login', { body: { user: phone, password: PASSWORD } });
    expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    return r.body.data.token as string;
  };
  const wrongFor = (secret: string) => {
    const now = s.clock.now();
    const right = new Set([-30_000, 0, 30_000, 60_000].map((d) => totpCode(secret, now + d)));
    for (let n = 100_000; ; n++) if (!right.has(String(n))) return String(n);
  };

  it.runIf(enabled)(
    'finding 2: log in, 4 wrong codes, log in again, repeat — stops at the account limit; the right code waits for the window',
    async () => {
      const u = await s.signUp();
      const { secret, codes } = await enrolTotp(s, u.token);
      const wrong = wrongFor(secret);
      const limit = s.config.factorLimit.perAccount;
      const answers: string[] = [];
      for (let round = 0; round < 5; round++) {
        // The password is right each time: it opens a step, and must buy no more guesses.
        const step = await login(u.phone);
        for (let i = 0; i < 4; i++)
          answers.push((await s.call('secondFactor', { token: step, body: { code: wrong } })).body.data);
      }
      expect(answers.filter((a) => a === 'errors.codeWrong')).toHaveLength(limit);
      expect(answers.filter((a) => a === 'errors.tooManyAttempts')).toHaveLength(20 - limit);

      // Locked within the window: the right code, a recovery code — all refused unchecked.
      const step = await login(u.phone);
      s.clock.advance(30_000);
      const right = await s.call('secondFactor', {
        token: step,
        body: { code: totpCode(secret, s.clock.now()) },
      });
      expect(right.status).toBe(429);
      expect(right.body.data).toBe('errors.tooManyAttempts');
      const recovery = await s.call('secondFactor', { token: step, body: { recovery: codes![0] } });
      expect(recovery.body.data).toBe('errors.tooManyAttempts');

      // The window passes: the right code opens the session.
      s.clock.advance(s.config.factorLimit.windowMs);
      const later = await login(u.phone);
      const ok = await s.call('secondFactor', {
        token: later,
        body: { code: totpCode(secret, s.clock.now()) },
      });
      expect(ok.body.msg, JSON.stringify(ok.body)).toBe('ok');
    },
  );

  it.runIf(enabled)(
    "finding 2: the owner's right code between an intruder's wrong ones buys the intruder nothing",
    async () => {
      const u = await s.signUp();
      const { secret } = await enrolTotp(s, u.token);
      const wrong = wrongFor(secret);
      const limit = s.config.factorLimit.perAccount;
      const intruder = await login(u.phone);
      for (let i = 0; i < limit - 1; i++)
        expect((await s.call('secondFactor', { token: intruder, body: { code: wrong } })).body.data).toBe(
          'errors.codeWrong',
        );
      // The owner signs in meanwhile: their right code is good and gives back only its own attempt.
      s.clock.advance(30_000);
      const owner = await login(u.phone);
      const signedIn = await s.call('secondFactor', {
        token: owner,
        body: { code: totpCode(secret, s.clock.now()) },
      });
      expect(signedIn.body.msg).toBe('ok');
      expect((await s.call('secondFactor', { token: intruder, body: { code: wrong } })).body.data).toBe(
        'errors.codeWrong',
      );
      expect((await s.call('secondFactor', { token: intruder, body: { code: wrong } })).body.data).toBe(
        'errors.tooManyAttempts',
      );
    },
  );

  it.runIf(enabled)(
    'finding 2: passkey tries count on the same account count, and a wrong code does not lock the password',
    async () => {
      const u = await s.signUp();
      const { secret } = await enrolTotp(s, u.token);
      const auth = new SoftAuthenticator();
      // A second factor's enrolment proves the first one.
      await enrolPasskey(s, u.token, auth, { code: nextCode(s, secret) });
      const limit = s.config.factorLimit.perAccount;
      const wrong = wrongFor(secret);
      const step = await login(u.phone);
      for (let i = 0; i < limit; i++) await s.call('secondFactor', { token: step, body: { code: wrong } });
      // A good signature is refused unchecked now: the count is the account's, whatever the proof.
      const options = await s.call('factorChallenge', { token: step });
      const tried = await s.call('secondFactor', {
        token: step,
        body: { passkey: auth.assert(options.body.data) },
      });
      expect(tried.body.data).toBe('errors.tooManyAttempts');
      // Passwords keep their own count: the owner still signs in to the step.
      expect(await login(u.phone)).toBeTruthy();
    },
  );

  it.runIf(enabled)(
    "finding 2: a member of staff's wrong codes are cleared neither by their password nor by their right code",
    async () => {
      const m = await enrolledMember(s, 'support');
      const wrong = wrongFor(m.secret);
      // The member's guesses allowed per window (backoffice/factors.ts).
      const limit = 5;
      const signIn = async () => {
        const r = await opsCall(s, 'login', null, { login: m.login, password: STAFF_PASSWORD });
        expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
        return r.body.data.token as string;
      };
      const guess = async (step: string) => (await opsCall(s, 'verify', step, { code: wrong })).body.data;
      const first = await signIn();
      for (let i = 0; i < limit - 1; i++) expect(await guess(first)).toBe('errors.codeWrong');
      // The member signs in meanwhile with their right code: it gives back only its own attempt.
      s.clock.advance(30_000);
      const own = await signIn();
      const signedIn = await opsCall(s, 'verify', own, { code: totpCode(m.secret, s.clock.now()) });
      expect(signedIn.body.msg, JSON.stringify(signedIn.body)).toBe('ok');
      const answers: string[] = [];
      for (let round = 0; round < 3; round++) {
        const step = await signIn();
        for (let i = 0; i < 4; i++) answers.push(await guess(step));
      }
      expect(answers.filter((a) => a === 'errors.codeWrong')).toHaveLength(1);
      expect(answers.filter((a) => a === 'errors.tooManyAttempts')).toHaveLength(11);
      // The right code waits for the window.
      const step = await signIn();
      s.clock.advance(30_000);
      const right = await opsCall(s, 'verify', step, { code: totpCode(m.secret, s.clock.now()) });
      expect(right.body.data).toBe('errors.tooManyAttempts');
      s.clock.advance(15 * 60_000);
      const later = await signIn();
      const ok = await opsCall(s, 'verify', later, { code: totpCode(m.secret, s.clock.now()) });
      expect(ok.body.msg, JSON.stringify(ok.body)).toBe('ok');
    },
  );
});
