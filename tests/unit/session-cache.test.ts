import { describe, expect, it } from 'vitest';
import { type CachedSession, SessionCache, UNHEARD_MS } from '../../server/lib/session-cache';

/** The session memory of lib/session-cache.ts on a clock the test moves. */
function setup(ttlMs = 1000, peers = false) {
  let t = 1_000_000;
  const cache = new SessionCache(ttlMs, () => t, peers);
  const session = (id: number): CachedSession => ({
    id,
    phone: `9${id}`,
    stage: 'full',
    expires_at: t + 3_600_000,
    revoked_at: null,
    last_seen_at: t,
  });
  /** Keeps a session as a lookup that began at `mark` (by default: now) would. */
  const put = (token: string, id: number, mark = cache.mark()) =>
    cache.put(token, `hash-of-${token}`, session(id), mark);
  return {
    cache,
    put,
    advance(ms: number) {
      t += ms;
    },
  };
}

describe('session cache', () => {
  it('answers for a session until its entry is ttl old, then reads again', () => {
    const { cache, put, advance } = setup(1000);
    expect(cache.get('a')).toBeUndefined();
    put('a', 1);
    expect(cache.get('a')?.id).toBe(1);
    advance(999);
    expect(cache.get('a')?.id).toBe(1);
    advance(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets one token at once, and every token of a user at once', () => {
    const { cache, put } = setup();
    put('a', 1);
    put('b', 1);
    put('c', 2);
    cache.forgetToken('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.id).toBe(1);
    cache.forgetUser(1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.id).toBe(2);
  });

  it("forgets a session another instance ended, named by its token's hash", () => {
    const { cache, put } = setup();
    put('a', 1);
    put('b', 1);
    const mark = cache.mark();
    cache.forgetHash('hash-of-a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.id).toBe(1);
    // A lookup under way when the notice came is not kept either.
    put('a', 1, mark);
    expect(cache.get('a')).toBeUndefined();
  });

  it('with other instances, trusts an entry for a second while their notices cannot be heard, and forgets all on hearing again', () => {
    const { cache, put, advance } = setup(60_000, true);
    put('a', 1);
    expect(cache.get('a')?.id).toBe(1);
    advance(UNHEARD_MS);
    // Deaf (not listening yet): a notice may have been missed, so the row is read again.
    expect(cache.get('a')).toBeUndefined();
    put('a', 1);
    const mark = cache.mark();
    cache.hearing(true);
    // Whatever was read while deaf is dropped, and a lookup under way then is not kept.
    expect(cache.get('a')).toBeUndefined();
    put('b', 2, mark);
    expect(cache.get('b')).toBeUndefined();
    put('a', 1);
    advance(59_999);
    expect(cache.get('a')?.id).toBe(1);
    cache.hearing(false);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep a lookup that was under way when a session was revoked', () => {
    const { cache } = setup();
    const row: CachedSession = {
      id: 1,
      phone: '9',
      stage: 'full',
      expires_at: 9e15,
      revoked_at: null,
      last_seen_at: 0,
    };
    // The lookup reads the row (not yet revoked), then logout commits and forgets, then the
    // lookup finishes: its row is stale and must not be remembered.
    const mark = cache.mark();
    cache.forgetToken('a');
    cache.put('a', 'hash-of-a', row, mark);
    expect(cache.get('a')).toBeUndefined();
    // A lookup begun after the revocation is kept again.
    cache.put('a', 'hash-of-a', row, cache.mark());
    expect(cache.get('a')?.id).toBe(1);
    // forgetUser counts as a revocation too, whoever it names.
    const before = cache.mark();
    cache.forgetUser(42);
    cache.put('b', 'hash-of-b', row, before);
    expect(cache.get('b')).toBeUndefined();
  });

  it('holds at most two periods of sessions, whatever was never asked for again', () => {
    const { cache, put, advance } = setup(1000);
    for (let i = 0; i < 100; i++) put(`old${i}`, i);
    advance(1000);
    put('new', 1);
    // The old period is now the previous one; one more period drops it.
    expect(cache.size).toBe(101);
    advance(1000);
    expect(cache.get('new')).toBeUndefined();
    expect(cache.size).toBe(1);
    advance(2000);
    cache.get('x');
    expect(cache.size).toBe(0);
  });

  it('trusts nothing when the clock is set back', () => {
    const { cache, put, advance } = setup(1000);
    put('a', 1);
    advance(-5);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a ttl of 0', () => {
    const { cache, put } = setup(0);
    put('a', 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
