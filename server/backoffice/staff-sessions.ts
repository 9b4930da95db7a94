import type { FastifyRequest } from 'fastify';
import type { SignedIn, Stage } from '#shared/backoffice';
import { ERR } from '#shared/contract/define';
import type { Deps } from '../deps';
import { addressKey, attempt } from '../lib/attempts';
import { audited, auditRefusal } from '../lib/audit-log';
import { newToken, sha256 } from '../lib/auth';
import { ApiError, invalid } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';
import { LOGIN, type StaffMember, type StaffSession, staffActor } from './staff';

/**
 * Staff sign-in and sessions: their own tokens (sent as `Authorization: Bearer`,
 * looked up only in `staff_sessions`, so a customer's token opens nothing here and a staff token
 * nothing in the customer API), read from the database on every call (a disabled member or an
 * ended session is refused at once on every instance).
 *
 * A session has a stage: a password opens only `enrol` (no second factor yet: set one up) or
 * `verify` (give one); only a second factor makes it `full`. No call of the back office but those
 * steps accepts a session that is not full, so no path skips the factor. A used enrolment link and
 * every failed sign-in are audited.
 */

const PASSWORD_MIN = 12;
const PASSWORD_MAX = 128;
/** A session that has not given its second factor yet ends this soon. */
const STEP_SESSION_MS = 10 * 60_000;
/** Password guesses per login and per address before a 15-minute wait. */
const GUESSES = { perLogin: 5, perAddress: 30, windowMs: 15 * 60_000 };
/** Refresh `last_seen_at` at most this often (the idle limit's resolution). */
const SEEN_EVERY_MS = 15_000;

/** Opens a session at `stage` and answers its token (only the hash is kept). */
async function openSession(deps: Deps, staffId: number, stage: Stage): Promise<string> {
  const token = newToken();
  const now = deps.clock.now();
  await deps.database.db
    .insertInto('staff_sessions')
    .values({
      token_hash: sha256(token),
      staff_id: staffId,
      stage,
      created_at: now,
      expires_at: now + (stage === 'full' ? deps.config.ops.sessionMs : STEP_SESSION_MS),
      last_seen_at: now,
      factor_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

/** The link's own use: nobody is signed in yet. */
const SYSTEM = { key: 'system', name: 'enrolment link', role: null, staffId: null };

/** What a member has set up, from the factor module (injected so this file knows no factor crypto). */
export type FactorsOf = (deps: Deps, staffId: number) => Promise<{ totp: boolean; passkeys: number }>;

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw invalid('ops.errors.password');
}

/**
 * The enrolment link used: the password is set and a session opens that can only set up a second
 * factor. The link works once (a guarded update) and only until it expires; its use is audited
 * with where it came from, so a link opened by someone other than the member shows.
 */
export async function enrol(
  deps: Deps,
  factorsOf: FactorsOf,
  token: string,
  password: string,
  from: { ip: string; userAgent?: string },
): Promise<SignedIn> {
  checkPassword(password);
  const now = deps.clock.now();
  const hash = await hashQueue(deps.config).run(() => hashSecret(password, deps.config.scrypt));
  const { result: member } = await audited(deps.database, SYSTEM, deps.clock.now, async (trx) => {
    const used = await trx
      .updateTable('staff_enrolments')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('staff_id')
      .executeTakeFirst();
    if (!used) throw new ApiError('ops.errors.enrolment', 400);
    const member = await trx
      .updateTable('staff')
      .set({ password_hash: hash })
      .where('id', '=', used.staff_id)
      .where('disabled_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!member) throw new ApiError('ops.errors.enrolment', 400);
    return {
      result: member,
      entry: {
        action: 'staff:enrolLink',
        targetType: 'staff',
        targetId: member.id,
        after: { address: addressKey(from.ip), userAgent: (from.userAgent ?? '').slice(0, 200) },
      },
    };
  });
  const factors = await factorsOf(deps, member.id);
  const stage: Stage = factors.totp || factors.passkeys > 0 ? 'verify' : 'enrol';
  return { token: await openSession(deps, member.id, stage), stage, factors };
}

/** A login and password: a session that must still give (or set up) a second factor. */
export async function signIn(
  deps: Deps,
  factorsOf: FactorsOf,
  login: string,
  password: string,
  ip: string,
): Promise<SignedIn> {
  const name = login.trim().toLowerCase();
  const now = deps.clock.now();
  const member = LOGIN.test(name)
    ? await deps.database.db.selectFrom('staff').selectAll().where('login', '=', name).executeTakeFirst()
    : undefined;
  const ok = await attempt(
    deps.database.db,
    [
      { key: `staff:${name}`, limit: GUESSES.perLogin, onSuccess: 'clear' },
      { key: `staff-ip:${addressKey(ip)}`, limit: GUESSES.perAddress, onSuccess: 'release' },
    ],
    GUESSES.windowMs,
    now,
    // An unknown login costs a hash too, so timing does not tell which logins exist.
    () =>
      hashQueue(deps.config).run(async () => {
        if (member?.password_hash) return verifySecret(password, member.password_hash);
        await hashSecret(password, deps.config.scrypt);
        return false;
      }),
  );
  if (!ok || !member || member.disabled_at !== null) {
    // Every failed guess is kept (the limits above bound how many): a stranger's or an insider's.
    const typed = name.replace(/[^\w.@-]/g, '').slice(0, 32);
    await auditRefusal(
      deps.database,
      member ? staffActor(member) : { key: 'unknown', name: typed || 'unknown', role: null, staffId: null },
      deps.clock.now,
      {
        action: 'staff:signInFailed',
        targetType: 'staff',
        targetId: member?.id ?? null,
        after: {
          login: typed,
          address: addressKey(ip),
          disabled: member ? member.disabled_at !== null : null,
        },
        reason: 'ops.errors.signIn',
      },
    );
    throw new ApiError('ops.errors.signIn', 401);
  }
  const factors = await factorsOf(deps, member.id);
  const stage: Stage = factors.totp || factors.passkeys > 0 ? 'verify' : 'enrol';
  return { token: await openSession(deps, member.id, stage), stage, factors };
}

/** The bearer token of a request (a header sent twice is no token). */
function bearerOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer ([A-Za-z0-9_-]{20,128})$/.exec(header);
  return m?.[1];
}

/** Background reads (the inbox's polls) say so; they do not count as the member's activity. */
export const POLL_HEADER = 'x-ops-poll';

/**
 * The member and session of a request, or 401 `logout`: an unknown, revoked or expired token, a
 * session left idle past OPS_IDLE_MS, or a disabled member.
 */
export async function authenticateStaff(
  deps: Deps,
  req: FastifyRequest,
): Promise<{ member: StaffMember; session: StaffSession }> {
  const token = bearerOf(req);
  if (!token) throw new ApiError(ERR.sessionExpired, 401);
  const tokenHash = sha256(token);
  const { db } = deps.database;
  const session = await db
    .selectFrom('staff_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  const now = deps.clock.now();
  if (
    !session ||
    session.revoked_at !== null ||
    session.expires_at <= now ||
    now - session.last_seen_at >= deps.config.ops.idleMs
  )
    throw new ApiError(ERR.sessionExpired, 401);
  const member = await db
    .selectFrom('staff')
    .selectAll()
    .where('id', '=', session.staff_id)
    .executeTakeFirst();
  if (!member || member.disabled_at !== null) throw new ApiError(ERR.sessionExpired, 401);
  if (req.headers[POLL_HEADER] !== '1' && now - session.last_seen_at >= SEEN_EVERY_MS) {
    await db
      .updateTable('staff_sessions')
      .set({ last_seen_at: now })
      .where('token_hash', '=', tokenHash)
      .execute();
    session.last_seen_at = now;
  }
  return { member, session };
}

/**
 * A second factor was given in this session: a step session becomes full (with the full session's
 * absolute limit, counted from now), a full one is fresh again for OPS_STEP_UP_MS.
 */
export async function factorGiven(
  deps: Deps,
  session: StaffSession,
): Promise<{ stage: Stage; freshUntil: number }> {
  const now = deps.clock.now();
  const becomesFull = session.stage !== 'full';
  await deps.database.db
    .updateTable('staff_sessions')
    .set({
      stage: 'full',
      factor_at: now,
      ...(becomesFull ? { expires_at: now + deps.config.ops.sessionMs } : {}),
    })
    .where('token_hash', '=', session.token_hash)
    .where('revoked_at', 'is', null)
    .execute();
  if (becomesFull)
    await deps.database.db
      .updateTable('staff')
      .set({ enrolled_at: now })
      .where('id', '=', session.staff_id)
      .where('enrolled_at', 'is', null)
      .execute();
  return { stage: 'full', freshUntil: now + deps.config.ops.stepUpMs };
}

/** Until when the session's last second factor counts as fresh (0 when it does not). */
export function freshUntil(deps: Deps, session: StaffSession): number {
  if (session.factor_at === null) return 0;
  const until = session.factor_at + deps.config.ops.stepUpMs;
  return until > deps.clock.now() ? until : 0;
}

export async function logoutStaff(deps: Deps, session: StaffSession): Promise<void> {
  await deps.database.db
    .updateTable('staff_sessions')
    .set({ revoked_at: deps.clock.now() })
    .where('token_hash', '=', session.token_hash)
    .execute();
}
