import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { replaceLoginPassword } from '../../server/account/login-password';
import { logout } from '../../server/account/sign-in';
import { createDatabase } from '../../server/db/index';
import { createDeps } from '../../server/deps';
import { sessionCache, sha256 } from '../../server/lib/auth';
import { hearEndedSessions } from '../../server/lib/session-notices';
import { DIALECTS, PG_URL, startTestServer, type TestServer } from '../support/server';

/**
 * The session memory (lib/session-cache.ts): a session is read once per SESSION_CACHE_MS, yet
 * whatever ends it on this instance is refused from the very next call, and what another instance
 * (or an operator) wrote is honoured once the entry is that old. The cache's age runs on the
 * server clock, which the test moves; 60 s here so that nothing expires by itself during a test.
 */
describe.each(DIALECTS)('session cache on $name', ({ name, enabled }) => {
  let s: TestServer;
  const TTL = 60_000;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { SESSION_CACHE_MS: String(TTL) });
  });
  afterAll(async () => {
    await s?.close();
  });

  const ok = async (token: string) => (await s.call('balance', { token })).body.msg;
  const refused = async (token: string) => {
    const res = await s.call('userInfo', { token });
    return res.status === 401 && res.body.msg === 'logout';
  };
  /** What another instance on the same database does on logout: the row only, not this cache. */
  const revokeElsewhere = (token: string) =>
    s.deps.database.db
      .updateTable('sessions')
      .set({ revoked_at: s.clock.now() })
      .where('token_hash', '=', sha256(token))
      .execute();

  it.runIf(enabled)('logout: the very next call with the token is refused on this instance', async () => {
    const u = await s.signUp();
    expect(await ok(u.token)).toBe('ok');
    expect(await ok(u.token)).toBe('ok');
    expect((await s.call('logout', { token: u.token })).body.msg).toBe('ok');
    // The clock has not moved: the entry would still be young, so it was forgotten.
    expect(await refused(u.token)).toBe(true);
    expect((await s.call('balance', { token: u.token })).status).toBe(401);
  });

  it.runIf(enabled)(
    'a password change ends the other sessions at once and keeps the caller signed in',
    async () => {
      const u = await s.signUp(undefined, 'first-pass');
      const other = (await s.call('login', { body: { user: u.phone, password: 'first-pass' } })).body.data
        .token as string;
      expect(await ok(u.token)).toBe('ok');
      expect(await ok(other)).toBe('ok');
      const change = await s.call('passwordUp', {
        token: u.token,
        body: { password: 'first-pass', password_new: 'second-pass' },
      });
      expect(change.body.msg).toBe('ok');
      expect(await refused(other)).toBe(true);
      expect(await ok(u.token)).toBe('ok');
    },
  );

  it.runIf(enabled)('a password reset ends every session at once', async () => {
    const u = await s.signUp(undefined, 'first-pass');
    expect(await ok(u.token)).toBe('ok');
    const reset = await s.call('forget', {
      body: { user: u.phone, password: 'first-pass', new_password: 'second-pass' },
    });
    expect(reset.body.msg).toBe('ok');
    expect(await refused(u.token)).toBe(true);
  });

  it.runIf(enabled)(
    'a revocation written elsewhere is honoured once the entry is SESSION_CACHE_MS old',
    async () => {
      const u = await s.signUp();
      expect(await ok(u.token)).toBe('ok');
      await revokeElsewhere(u.token);
      // Within the cache's age this instance still answers from memory: the documented window.
      expect(await ok(u.token)).toBe('ok');
      s.clock.advance(TTL);
      expect(await refused(u.token)).toBe(true);
    },
  );

  it.runIf(enabled)(
    'remembers valid sessions only: an unknown or revoked token is read every time',
    async () => {
      const u = await s.signUp();
      const cache = sessionCache(s.deps);
      expect((await s.call('userInfo', { token: 'not-a-session' })).body.data).toBe(
        'errors.authKeyIncorrect',
      );
      expect(cache.get('not-a-session')).toBeUndefined();
      await revokeElsewhere(u.token);
      expect(await refused(u.token)).toBe(true);
      expect(cache.get(u.token)).toBeUndefined();
    },
  );
});

describe.each(DIALECTS)('session cache off on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name, { SESSION_CACHE_MS: '0' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)('SESSION_CACHE_MS=0 reads the session on every call', async () => {
    const u = await s.signUp();
    expect((await s.call('balance', { token: u.token })).body.msg).toBe('ok');
    await s.deps.database.db
      .updateTable('sessions')
      .set({ revoked_at: s.clock.now() })
      .where('token_hash', '=', sha256(u.token))
      .execute();
    expect((await s.call('balance', { token: u.token })).status).toBe(401);
    expect(sessionCache(s.deps).size).toBe(0);
  });
});

/** PostgreSQL: what another instance ends reaches this one as a notice, not after the cache's age. */
const pg = DIALECTS.find((d) => d.name === 'postgres')!;
describe('session notices on postgres', () => {
  let s: TestServer;
  let stop = () => {};
  beforeAll(async () => {
    if (!pg.enabled) return;
    s = await startTestServer('postgres', { SESSION_CACHE_MS: '60000' });
    stop = hearEndedSessions(s.deps, () => {}, { pingMs: 100 });
  });
  afterAll(async () => {
    stop();
    await s?.close();
  });

  it.runIf(pg.enabled)(
    'a logout and a password change on another instance are refused here within moments, though the entries are young',
    async () => {
      await vi.waitFor(() => expect(sessionCache(s.deps).hears).toBe(true), { timeout: 5_000 });
      // Another instance: its own connection to the same database, its own memory.
      const other = createDeps(s.config, createDatabase(s.config.databaseUrl));
      try {
        const u = await s.signUp(undefined, 'first-pass');
        const second = (await s.call('login', { body: { user: u.phone, password: 'first-pass' } })).body.data
          .token as string;
        for (const token of [u.token, second])
          expect((await s.call('balance', { token })).body.msg).toBe('ok');
        await logout(other, u.token);
        await vi.waitFor(async () => expect((await s.call('balance', { token: u.token })).status).toBe(401), {
          timeout: 2_000,
          interval: 20,
        });
        expect((await s.call('balance', { token: second })).body.msg).toBe('ok');
        // Every session of a user (a password change or reset there).
        await replaceLoginPassword(other, u.id, 'x');
        await vi.waitFor(async () => expect((await s.call('balance', { token: second })).status).toBe(401), {
          timeout: 2_000,
          interval: 20,
        });
      } finally {
        await other.database.close();
      }
    },
  );

  /** The listener's backend on the PostgreSQL server (its connection is named after this process). */
  async function listenerBackend(): Promise<number | undefined> {
    const { rows } = await sql<{
      pid: number;
    }>`select pid from pg_stat_activity where application_name = ${`bourse-sessions:${process.pid}`}`.execute(
      s.deps.database.db,
    );
    return rows[0]?.pid;
  }
  const hears = () => sessionCache(s.deps).hears;

  it.runIf(pg.enabled)(
    'a listener whose connection is cut stops trusting its memory, then listens again',
    async () => {
      await vi.waitFor(() => expect(hears()).toBe(true), { timeout: 5_000 });
      const before = await listenerBackend();
      await sql`select pg_terminate_backend(${before})`.execute(s.deps.database.db);
      await vi.waitFor(() => expect(hears()).toBe(false), { timeout: 2_000, interval: 10 });
      await vi.waitFor(() => expect(hears()).toBe(true), { timeout: 5_000, interval: 20 });
      expect(await listenerBackend()).not.toBe(before);
    },
  );

  // A connection can also go silent without closing (a firewall's idle timeout, a failover): here the
  // listener's backend is stopped (SIGSTOP), which needs the database on this machine and root.
  const local = ['127.0.0.1', 'localhost', ''].includes(new URL(PG_URL || 'postgres://x').hostname);
  it.runIf(pg.enabled && local && process.getuid?.() === 0)(
    'a listener that hears nothing back finds out within two pings, and listens again on a new connection',
    async () => {
      await vi.waitFor(() => expect(hears()).toBe(true), { timeout: 5_000 });
      const silent = await listenerBackend();
      expect(silent).toBeDefined();
      process.kill(silent!, 'SIGSTOP');
      try {
        await vi.waitFor(() => expect(hears()).toBe(false), { timeout: 2_000, interval: 10 });
        await vi.waitFor(() => expect(hears()).toBe(true), { timeout: 5_000, interval: 20 });
      } finally {
        process.kill(silent!, 'SIGCONT');
      }
    },
  );
});
