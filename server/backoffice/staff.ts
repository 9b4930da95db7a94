import type { Kysely, Selectable } from 'kysely';
import { ROLES, type Role, type StaffRow } from '#shared/backoffice';
import type { DB, StaffSessionsTable, StaffTable } from '../db/schema';
import type { Deps } from '../deps';
import { ownerKey } from '../factors/index';
import { type Actor, audited } from '../lib/audit-log';
import { newToken, sha256 } from '../lib/auth';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { deliver, isContact, maskContact } from './courier';

/**
 * The members of staff: apart from customers, their own table, sessions
 * (staff-sessions.ts) and tokens. A member is added with their own contact address, and their
 * one-time enrolment link goes there (courier.ts) — never to the admin who added them, so nobody
 * sets up another member's second factor. Only the console, the first admin's door, prints a link.
 * Who created a member and who issued their current enrolment are kept (`created_by`,
 * `enrolled_by`): a checker made by the maker is no checker (approvals/people.ts). Roles are changed and
 * members disabled or re-enrolled by an admin, never by themselves.
 */

export type StaffMember = Selectable<StaffTable>;
export type StaffSession = Selectable<StaffSessionsTable>;

/** A login: lower-case letters, digits, dot, dash, underscore. */
export const LOGIN = /^[a-z0-9._-]{3,32}$/;

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function staffRow(s: StaffMember): StaffRow {
  return {
    id: s.id,
    login: s.login,
    name: s.name,
    role: s.role as Role,
    enrolled: s.enrolled_at !== null,
    disabled: s.disabled_at !== null,
    createdAt: s.created_at,
    contact: s.contact ? maskContact(s.contact) : null,
    createdBy: s.created_by,
  };
}

/** The actor of a staff member's action. */
export function staffActor(s: StaffMember, requestId?: string): Actor {
  return { key: `staff:${s.id}`, name: s.name, role: s.role, staffId: s.id, requestId: requestId ?? null };
}

/** The one-time link that lets a member set a password and a second factor. */
export function enrolmentLink(publicUrl: string, token: string): string {
  return `${publicUrl}/ops/enrol#${token}`;
}

/** The server's public address as it started, for the console's links (a console runs on no port). */
const PUBLIC_URL_TAG = 'ops.publicUrl';

/** Records where this server is reached (main.ts, once it listens on `port`). */
export async function recordPublicUrl(deps: Deps, port: number): Promise<void> {
  const value = deps.config.ops.publicUrl ?? `http://localhost:${port}`;
  await deps.database.db
    .insertInto('config')
    .values({ tag: PUBLIC_URL_TAG, value })
    .onConflict((oc) => oc.column('tag').doUpdateSet({ value }))
    .execute();
}

/** Where the back office is reached: OPS_PUBLIC_URL, else the address the server recorded at start. */
export async function publicUrlOf(deps: Deps): Promise<string> {
  if (deps.config.ops.publicUrl) return deps.config.ops.publicUrl;
  const row = await deps.database.db
    .selectFrom('config')
    .select('value')
    .where('tag', '=', PUBLIC_URL_TAG)
    .executeTakeFirst();
  return row?.value || `http://localhost:${deps.config.port}`;
}

/** A new link for the member (any unused earlier one dies), in the caller's transaction. */
async function newEnrolment(trx: Kysely<DB>, deps: Deps, staffId: number): Promise<string> {
  const token = newToken();
  const now = deps.clock.now();
  await trx
    .updateTable('staff_enrolments')
    .set({ used_at: now })
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .execute();
  await trx
    .insertInto('staff_enrolments')
    .values({
      token_hash: sha256(token),
      staff_id: staffId,
      created_at: now,
      expires_at: now + deps.config.ops.enrolMs,
      used_at: null,
    })
    .execute();
  return token;
}

/** Every second factor of a member goes (a re-enrolment sets up a new one). */
async function dropStaffFactors(trx: Kysely<DB>, staffId: number): Promise<void> {
  const owner = ownerKey({ kind: 'staff', id: staffId });
  await trx.deleteFrom('factor_totp').where('owner', '=', owner).execute();
  await trx.deleteFrom('factor_passkeys').where('owner', '=', owner).execute();
  await trx.deleteFrom('factor_recovery').where('owner', '=', owner).execute();
}

/** What adding or re-enrolling answers: the link itself only to the console. */
export interface Enrolment {
  staff: StaffRow;
  /** The console's (printed once); null when it went to the member's contact. */
  link: string | null;
  /** The masked address the link was sent to (null: none was given, console only). */
  sentTo: string | null;
}

async function handOver(deps: Deps, actor: Actor, member: StaffMember, token: string): Promise<Enrolment> {
  const link = enrolmentLink(await publicUrlOf(deps), token);
  const hours = Math.round(deps.config.ops.enrolMs / 3_600_000);
  if (member.contact)
    deliver(
      deps.config.ops.outboxDir,
      {
        to: member.contact,
        subject: 'Your Bourse back-office enrolment link',
        text: [
          `Hello ${member.name},`,
          '',
          `${actor.name} gave you the role "${member.role}" in the Bourse back office (login: ${member.login}).`,
          `Open this link to choose your password and set up your second factor. It works once, for ${hours} hours:`,
          '',
          link,
          '',
          'If you did not expect this, tell your security team and do not open the link.',
        ].join('\r\n'),
      },
      deps.clock.now(),
    );
  return {
    staff: staffRow(member),
    link: actor.staffId === null ? link : null,
    sentTo: member.contact ? maskContact(member.contact) : null,
  };
}

/**
 * Adds a member (the console's `staff:add`, or an admin) with their own contact address, where the
 * enrolment link goes. The console may leave the contact out and print the link instead: the first
 * admin can only come from there.
 */
export async function addStaff(
  deps: Deps,
  actor: Actor,
  input: { login: string; name?: string; role: string; contact?: string | null },
): Promise<Enrolment> {
  const login = input.login.trim().toLowerCase();
  if (!LOGIN.test(login)) throw invalid('ops.errors.login');
  if (!isRole(input.role)) throw invalid('ops.errors.role');
  const contact = (input.contact ?? '').trim() || null;
  if (contact !== null && !isContact(contact)) throw invalid('ops.errors.contact');
  if (contact === null && actor.staffId !== null) throw invalid('ops.errors.contact');
  const name = (input.name ?? '').trim().slice(0, 80) || login;
  const now = deps.clock.now();
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const taken = await trx.selectFrom('staff').select('id').where('login', '=', login).executeTakeFirst();
    if (taken) throw conflict('ops.errors.loginTaken');
    const row = await trx
      .insertInto('staff')
      .values({
        login,
        name,
        role: input.role,
        password_hash: null,
        created_by: actor.key,
        created_at: now,
        enrolled_at: null,
        disabled_at: null,
        contact,
        enrolled_by: actor.key,
        enrol_issued_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const token = await newEnrolment(trx, deps, row.id);
    return {
      result: { row, token },
      entry: {
        action: 'staff:add',
        targetType: 'staff',
        targetId: row.id,
        after: {
          login,
          name,
          role: input.role,
          linkTo: contact ? maskContact(contact) : 'console',
        },
      },
    };
  });
  return handOver(deps, actor, result.row, result.token);
}

/**
 * A member who lost their factor is enrolled again: their sessions end, their factors and password
 * go, and a new one-time link goes to their own contact (the console prints it). Whoever does this
 * becomes the one who enrolled them: for OPS_RELATED_DAYS that member checks none of their work.
 */
export async function reenrolStaff(deps: Deps, actor: Actor, staffId: number): Promise<Enrolment> {
  if (actor.staffId === staffId) throw new ApiError('ops.errors.ownAction', 403);
  const now = deps.clock.now();
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await trx
      .selectFrom('staff')
      .selectAll()
      .where('id', '=', staffId)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (!before) throw notFound();
    if (!before.contact && actor.staffId !== null) throw conflict('ops.errors.noContact');
    const row = await trx
      .updateTable('staff')
      .set({ password_hash: null, enrolled_at: null, enrolled_by: actor.key, enrol_issued_at: now })
      .where('id', '=', staffId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await dropStaffFactors(trx, staffId);
    await trx
      .updateTable('staff_sessions')
      .set({ revoked_at: now })
      .where('staff_id', '=', staffId)
      .where('revoked_at', 'is', null)
      .execute();
    const token = await newEnrolment(trx, deps, staffId);
    return {
      result: { row, token },
      entry: {
        action: 'staff:reenrol',
        targetType: 'staff',
        targetId: staffId,
        before: { enrolledBy: before.enrolled_by, enrolled: before.enrolled_at !== null },
        after: { enrolledBy: actor.key, linkTo: row.contact ? maskContact(row.contact) : 'console' },
      },
    };
  });
  return handOver(deps, actor, result.row, result.token);
}

/** Changes a member's role; nobody changes their own (an admin cannot make themselves anything). */
export async function changeRole(deps: Deps, actor: Actor, staffId: number, role: string): Promise<StaffRow> {
  if (!isRole(role)) throw invalid('ops.errors.role');
  if (actor.staffId === staffId) throw new ApiError('ops.errors.ownAction', 403);
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await trx.selectFrom('staff').selectAll().where('id', '=', staffId).executeTakeFirst();
    if (!before) throw notFound();
    const after = await trx
      .updateTable('staff')
      .set({ role })
      .where('id', '=', staffId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // A new role takes effect with a new sign-in: the member's sessions end.
    await trx
      .updateTable('staff_sessions')
      .set({ revoked_at: deps.clock.now() })
      .where('staff_id', '=', staffId)
      .where('revoked_at', 'is', null)
      .execute();
    return {
      result: after,
      entry: {
        action: 'staff:role',
        targetType: 'staff',
        targetId: staffId,
        before: { role: before.role },
        after: { role },
      },
    };
  });
  return staffRow(result);
}

/** Disables a member: every session ends and no sign-in works again. */
export async function disableStaff(deps: Deps, actor: Actor, staffId: number): Promise<StaffRow> {
  if (actor.staffId === staffId) throw new ApiError('ops.errors.ownAction', 403);
  const now = deps.clock.now();
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const row = await trx
      .updateTable('staff')
      .set({ disabled_at: now })
      .where('id', '=', staffId)
      .where('disabled_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound();
    await trx
      .updateTable('staff_sessions')
      .set({ revoked_at: now })
      .where('staff_id', '=', staffId)
      .where('revoked_at', 'is', null)
      .execute();
    return { result: row, entry: { action: 'staff:disable', targetType: 'staff', targetId: staffId } };
  });
  return staffRow(result);
}

export async function listStaff(deps: Deps): Promise<StaffRow[]> {
  const rows = await deps.database.db.selectFrom('staff').selectAll().orderBy('id').execute();
  return rows.map(staffRow);
}
