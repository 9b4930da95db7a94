import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '#shared/contract/index';
import { MAX_FAILURES } from '../../server/account/fund-password';
import { loadConfig } from '../../server/config';
import { addressKey } from '../../server/lib/attempts';
import { hashQueue } from '../../server/lib/hash-queue';
import { DIALECTS, freshPhone, startTestServer, type TestServer } from '../support/server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  setTradePassword,
} from '../support/trading';

/**
 * Holes 2 and 3: 40 simultaneous wrong guesses were all evaluated (none limited), for
 * login, forgot-password and the transaction password. Each guess now reserves its attempt in the
 * database before the password is checked, so at most the limit is ever evaluated; registration
 * checks the cheap things before hashing, is limited per address, and hashes wait in a bounded queue.
 */

const countOf = (answers: Array<{ body: { data: unknown } }>, key: string) =>
  answers.filter((a) => a.body.data === key).length;

describe.each(DIALECTS)('attempt limits under simultaneous guesses on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  const perPhone = () => s.config.loginLimit.perPhone;
  const failuresOf = async (key: string) =>
    Number(
      (
        await s.deps.database.db
          .selectFrom('login_attempts')
          .select('failures')
          .where('key', '=', key)
          .executeTakeFirst()
      )?.failures ?? 0,
    );

  it.runIf(enabled)('40 parallel wrong logins for one phone: only the limit is evaluated', async () => {
    const u = await s.signUp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => s.call('login', { body: { user: u.phone, password: 'wrong-guess' } })),
    );
    expect(countOf(answers, 'errors.invalidCredentials')).toBe(perPhone());
    expect(countOf(answers, 'errors.tooManyAttempts')).toBe(40 - perPhone());
    expect(
      answers.filter((a) => a.body.data === 'errors.tooManyAttempts').every((a) => a.status === 429),
    ).toBe(true);
    expect(await failuresOf(`phone:${u.phone}`)).toBe(perPhone());
    // Locked: even the right password waits for the window to end.
    const right = await s.call('login', { body: { user: u.phone, password: 'secret123' } });
    expect(right.body.data).toBe('errors.tooManyAttempts');
    s.clock.advance(s.config.loginLimit.windowMs + 1);
    const later = await s.call('login', { body: { user: u.phone, password: 'secret123' } });
    expect(later.body.msg).toBe('ok');
    // A success clears the phone's count.
    expect(await failuresOf(`phone:${u.phone}`)).toBe(0);
  });

  it.runIf(enabled)(
    '40 parallel wrong old passwords on forgot-password: only the limit is evaluated',
    async () => {
      const u = await s.signUp();
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          s.call('forget', {
            body: { user: u.phone, password: 'wrong-guess', new_password: 'another1' },
          }),
        ),
      );
      expect(countOf(answers, 'errors.oldPasswordIncorrect')).toBe(perPhone());
      expect(countOf(answers, 'errors.tooManyAttempts')).toBe(40 - perPhone());
      const login = await s.call('login', { body: { user: u.phone, password: 'secret123' } });
      expect(login.body.data).toBe('errors.tooManyAttempts');
    },
  );

  it.runIf(enabled)('40 parallel wrong transaction passwords: at most 5 codes are checked', async () => {
    controlMarket(s).pin('TCS.NS', 4000);
    const u = await s.signUp();
    await credit(s, u.id, 100_000_000);
    const code = await setTradePassword(s, u.id);
    const id = await insertBlockItem(s, { tag: 'TCS.NS', price: 3900 });
    const body = (pw: string) => ({
      tag: 'TCS.NS',
      count: 100,
      price: 3900,
      mold: 'bulk',
      id,
      stock_password: pw,
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        s.call('dealBuy', { token: u.token, headers: idem(), body: body(String(100000 + i)) }),
      ),
    );
    // Four are told "wrong"; the fifth wrong code locks it; the other 35 are refused unchecked.
    expect(countOf(answers, 'errors.fundPasswordWrong')).toBe(MAX_FAILURES - 1);
    expect(countOf(answers, 'errors.fundPasswordLocked')).toBe(40 - (MAX_FAILURES - 1));
    const row = await s.deps.database.db
      .selectFrom('users')
      .select(['fund_password_fails', 'fund_password_locked_until'])
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.fund_password_fails).toBe(MAX_FAILURES);
    expect(Number(row.fund_password_locked_until)).toBeGreaterThan(s.clock.now());
    const right = await s.call('dealBuy', { token: u.token, headers: idem(), body: body(code) });
    expect(right.body.data).toBe('errors.fundPasswordLocked');
  });

  it.runIf(enabled)('addresses: IPv6 counts per /64, IPv4-mapped as IPv4', async () => {
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:0:0:9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    const limited = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '3', LOGIN_LIMIT_PHONE: '100' });
    try {
      const guess = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: `${limited.config.apiBase}${contract.login.path}`,
          remoteAddress,
          payload: { user: freshPhone(), password: 'wrong-guess' },
        });
      for (const host of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ab::3']) {
        expect((await guess(host)).json().data).toBe('errors.invalidCredentials');
      }
      // Another address of the same /64 is already limited; another /64 is not.
      expect((await guess('2001:db8:1:2:ffff::9')).statusCode).toBe(429);
      expect((await guess('2001:db8:1:3::1')).json().data).toBe('errors.invalidCredentials');
    } finally {
      await limited.close();
    }
  });
});

describe.each(DIALECTS)('registration and hashing are throttled on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { REGISTER_LIMIT_ADDRESS: '3', HASH_CONCURRENCY: '1', HASH_QUEUE: '1' });
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });
  const register = (remoteAddress: string, body: Record<string, string>) =>
    s.app.inject({
      method: 'POST',
      url: `${s.config.apiBase}${contract.register.path}`,
      remoteAddress,
      payload: body,
    });

  it.runIf(enabled)(
    'the invitation code and phone are checked before any hash; excess hashes get 429 at once',
    async () => {
      // Hold the only hash slot and its one queue place.
      let release = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const queue = hashQueue(s.config);
      const held = [queue.run(() => gate), queue.run(() => gate)];
      expect(queue.load()).toEqual({ active: 1, waiting: 1 });
      try {
        const wrongCode = await register('10.0.0.1', {
          user: freshPhone(),
          password: 'secret123',
          code: 'NOPE',
        });
        expect(wrongCode.json()).toEqual({ msg: 'no', data: 'errors.invalidInvitationCode' });
        const taken = await register('10.0.0.2', {
          user: '9876543210',
          password: 'secret123',
          code: s.config.inviteCode,
        });
        expect(taken.json()).toEqual({ msg: 'no', data: 'errors.phoneTaken' });
        const busy = await register('10.0.0.3', {
          user: freshPhone(),
          password: 'secret123',
          code: s.config.inviteCode,
        });
        expect(busy.statusCode).toBe(429);
        expect(busy.json()).toEqual({ msg: 'no', data: 'errors.busy' });
        expect(queue.load()).toEqual({ active: 1, waiting: 1 });
      } finally {
        release();
        await Promise.all(held);
      }
      expect(queue.load()).toEqual({ active: 0, waiting: 0 });
    },
  );

  it.runIf(enabled)('at most REGISTER_LIMIT_ADDRESS registrations per address and window', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await register('10.9.9.9', {
        user: freshPhone(),
        password: 'secret123',
        code: s.config.inviteCode,
      });
      expect(ok.json().msg).toBe('ok');
    }
    const fourth = await register('10.9.9.9', {
      user: freshPhone(),
      password: 'secret123',
      code: s.config.inviteCode,
    });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().data).toBe('errors.tooManyAttempts');
    const elsewhere = await register('10.9.9.10', {
      user: freshPhone(),
      password: 'secret123',
      code: s.config.inviteCode,
    });
    expect(elsewhere.json().msg).toBe('ok');
  });
});

describe.each(DIALECTS)('TRUST_PROXY on $name', ({ name, enabled }) => {
  it('takes a hop count or proxy addresses, never "everything"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
    ]);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/hop count/);
    // A typo trusts nobody by accident: it stops the start, naming the entry.
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', '::1/129'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: ".*" is not an address/);
    expect(loadConfig({ TRUST_PROXY: 'fd00::/8, ::1' }).trustProxy).toEqual(['fd00::/8', '::1']);
  });

  it.runIf(enabled)(
    'with one hop, the address the proxy saw is limited; a forged header before it is not believed',
    async () => {
      const s = await startTestServer(name, {
        TRUST_PROXY: '1',
        LOGIN_LIMIT_ADDRESS: '2',
        LOGIN_LIMIT_PHONE: '100',
      });
      try {
        const guess = (forwarded: string) =>
          s.app.inject({
            method: 'POST',
            url: `${s.config.apiBase}${contract.login.path}`,
            remoteAddress: '10.0.0.1',
            headers: { 'x-forwarded-for': forwarded },
            payload: { user: freshPhone(), password: 'wrong-guess' },
          });
        // The client forges a new first address each time; the proxy appends the real one.
        expect((await guess('1.1.1.1, 203.0.113.7')).statusCode).toBe(400);
        expect((await guess('1.1.1.2, 203.0.113.7')).statusCode).toBe(400);
        expect((await guess('1.1.1.3, 203.0.113.7')).statusCode).toBe(429);
        expect((await guess('1.1.1.4, 203.0.113.8')).statusCode).toBe(400);
      } finally {
        await s.close();
      }
    },
  );
});
