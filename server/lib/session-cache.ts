import type { SessionStage } from '../db/schema';

/**
 * A memory of valid sessions, so an app polling several answers a second does not pay the session
 * lookup (a read and a SHA-256 of the token) on each. Only sessions found valid are
 * kept, by their token, for at most `ttlMs` on the server clock (SESSION_CACHE_MS, default 60 s; 0
 * turns it off); the expiry and idle limits are still checked on every call against the cached row.
 *
 * Revocation:
 * - In this process, at once: whatever ends sessions here (logout, a password change or reset)
 *   calls `forgetToken` / `forgetUser` after its write committed, and a lookup that was under way
 *   when that happened is not kept (`generation`), since it may have read the row before the write.
 * - By another instance on the same PostgreSQL database: its notice (lib/session-notices.ts)
 *   arrives within milliseconds of its commit and `forgetHash` / `forgetUser` drop the entries. While
 *   this instance cannot hear those notices (`hearing(false)`: not connected yet, or the connection
 *   dropped) no entry older than UNHEARD_MS is trusted; when hearing resumes everything is
 *   forgotten, since notices may have been missed. One instance alone (SQLite) hears everything.
 * - A row written by hand (an operator's SQL) is honoured once the entry is `ttlMs` old.
 *
 * Memory: entries live in two maps, the current one and the one before; every `ttlMs` the older is
 * dropped whole, so at most two periods of active sessions are held, with no timer.
 */

/** While revocations by other instances may go unheard, how old an entry may be. */
export const UNHEARD_MS = 1000;

export interface CachedSession {
  id: number;
  phone: string;
  stage: SessionStage;
  expires_at: number;
  revoked_at: number | null;
  last_seen_at: number;
}

interface Entry {
  session: CachedSession;
  /** SHA-256 of the token (what a notice from another instance names). */
  hash: string;
  /** When the row was read (the cache's clock). */
  at: number;
}

/** One period's entries by token, and the token of each hash (a notice names the hash). */
class Period {
  readonly byToken = new Map<string, Entry>();
  readonly tokenOf = new Map<string, string>();

  delete(token: string): void {
    const entry = this.byToken.get(token);
    if (entry === undefined) return;
    this.byToken.delete(token);
    this.tokenOf.delete(entry.hash);
  }
}

export class SessionCache {
  private current = new Period();
  private previous = new Period();
  private rotatedAt: number;
  private generation = 0;
  private heard: boolean;

  /**
   * `now`: the server's clock (tests move it to age entries); a clock set back drops them all.
   * `peers`: other instances may end sessions (PostgreSQL): deaf until `hearing(true)`.
   */
  constructor(
    readonly ttlMs: number,
    private readonly now: () => number,
    peers = false,
  ) {
    this.rotatedAt = now();
    this.heard = !peers;
  }

  /** How old an entry may be now. */
  private get maxAgeMs(): number {
    return this.heard ? this.ttlMs : Math.min(this.ttlMs, UNHEARD_MS);
  }

  /** Whether every revocation reaches this cache (its own, and other instances' notices). */
  get hears(): boolean {
    return this.heard;
  }

  /** Whether other instances' notices reach this cache; on resuming, everything is forgotten. */
  hearing(heard: boolean): void {
    if (heard && !this.heard) {
      this.generation++;
      this.current = new Period();
      this.previous = new Period();
    }
    this.heard = heard;
  }

  /** The session of `token` if it was read less than `ttlMs` ago. */
  get(token: string): CachedSession | undefined {
    if (this.ttlMs <= 0) return undefined;
    const now = this.now();
    this.rotate(now);
    const entry = this.current.byToken.get(token) ?? this.previous.byToken.get(token);
    if (entry === undefined) return undefined;
    const age = now - entry.at;
    return age >= 0 && age < this.maxAgeMs ? entry.session : undefined;
  }

  /** Taken before a lookup; `put` keeps its result only if nothing was revoked in between. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a session just read (at `mark`) by its token and the token's hash, unless a revocation happened since. */
  put(token: string, hash: string, session: CachedSession, mark: number): void {
    if (this.ttlMs <= 0 || mark !== this.generation) return;
    const now = this.now();
    this.rotate(now);
    this.current.byToken.set(token, { session, hash, at: now });
    this.current.tokenOf.set(hash, token);
  }

  /** A session ended (logout): the next call with `token` reads the database. */
  forgetToken(token: string): void {
    this.generation++;
    this.current.delete(token);
    this.previous.delete(token);
  }

  /** A session ended on another instance, named by its token's hash (one lookup, not a scan). */
  forgetHash(hash: string): void {
    this.generation++;
    for (const period of [this.current, this.previous]) {
      const token = period.tokenOf.get(hash);
      if (token !== undefined) period.delete(token);
    }
  }

  /**
   * Sessions of a user ended (password change or reset): every token of the user is read again.
   * A scan of what is held: password changes are rare beside logouts.
   */
  forgetUser(userId: number): void {
    this.generation++;
    for (const period of [this.current, this.previous])
      for (const [token, entry] of period.byToken) if (entry.session.id === userId) period.delete(token);
  }

  /** Entries held (both periods); for tests. */
  get size(): number {
    return this.current.byToken.size + this.previous.byToken.size;
  }

  private rotate(now: number): void {
    const since = now - this.rotatedAt;
    if (since >= 0 && since < this.ttlMs) return;
    // Everything in `previous` is older than one period by now; `current` may still be fresh
    // (unless the clock went back: then nothing is trusted).
    this.previous = since >= 0 && since < 2 * this.ttlMs ? this.current : new Period();
    this.current = new Period();
    this.rotatedAt = now;
  }
}
