import fs from 'node:fs';
import path from 'node:path';
import { OPS_API, OPS_PREFIX, type OpsName, type Role } from '#shared/backoffice';
import { addStaff } from '../../server/backoffice/staff';
import { totpCode } from '../../server/factors/index';
import { consoleActor } from '../../server/lib/audit-log';
import type { Reply, TestServer } from './server';

/**
 * Back-office staff through the real API: added as the console adds them, enrolled by
 * their one-time link with a password and an authenticator app whose codes are computed from the
 * secret the server gave.
 */

export const STAFF_PASSWORD = 'correct horse battery';

export interface Member {
  id: number;
  login: string;
  role: Role;
  /** A full session's bearer token. */
  token: string;
  secret: string;
}

let seq = 0;

/** One back-office call by name, with a staff bearer token (or any other headers). */
export function opsCall(
  s: TestServer,
  name: OpsName,
  token: string | null,
  input: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Reply> {
  const def = OPS_API[name];
  const url = `${OPS_PREFIX}${def.path}`;
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (def.method === 'GET')
    return s.api('GET', url, {
      query: input as Record<string, string | number>,
      headers: { ...auth, ...headers },
    });
  return s.api('POST', url, { body: input, headers: { ...auth, ...headers } });
}

/** A member of staff with `role`, enrolled with an authenticator app, signed in (full session). */
export async function enrolledMember(s: TestServer, role: Role, login = `${role}${++seq}`): Promise<Member> {
  const { staff, link } = await addStaff(s.deps, consoleActor('test'), { login, role });
  const token = link!.split('#')[1]!;
  const enrolled = await opsCall(s, 'enrol', null, { token, password: STAFF_PASSWORD });
  if (enrolled.body.msg !== 'ok') throw new Error(`enrol failed: ${JSON.stringify(enrolled.body)}`);
  const session = enrolled.body.data.token as string;
  const begun = await opsCall(s, 'totpBegin', session);
  const secret = begun.body.data.secret as string;
  const confirmed = await opsCall(s, 'totpConfirm', session, { code: totpCode(secret, s.clock.now()) });
  if (confirmed.body.msg !== 'ok') throw new Error(`totp failed: ${JSON.stringify(confirmed.body)}`);
  return { id: staff.id, login, role, token: session, secret };
}

/**
 * Signs a member in again (password, then a code of the next 30-second step: each code is good
 * once, so the clock moves on to it) and answers the full session's token.
 */
export async function signInAgain(s: TestServer, m: Member): Promise<string> {
  const step = await opsCall(s, 'login', null, { login: m.login, password: STAFF_PASSWORD });
  if (step.body.msg !== 'ok') throw new Error(`sign-in failed: ${JSON.stringify(step.body)}`);
  s.clock.advance(30_000);
  const verified = await opsCall(s, 'verify', step.body.data.token, {
    code: totpCode(m.secret, s.clock.now()),
  });
  if (verified.body.msg !== 'ok') throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  return step.body.data.token;
}

/** A fresh second factor in a full session (step-up): the next step's code. */
export async function stepUp(s: TestServer, m: Member, token = m.token): Promise<void> {
  s.clock.advance(30_000);
  const r = await opsCall(s, 'verify', token, { code: totpCode(m.secret, s.clock.now()) });
  if (r.body.msg !== 'ok') throw new Error(`step-up failed: ${JSON.stringify(r.body)}`);
}

/** The enrolment token of the newest message the outbox holds for `contact` (null: none). */
export function outboxToken(s: TestServer, contact: string): string | null {
  const dir = s.config.ops.outboxDir;
  if (!fs.existsSync(dir)) return null;
  const mine = fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter((m) => m.startsWith(`To: ${contact}\r\n`));
  const last = mine.at(-1);
  return last ? (/\/ops\/enrol#([A-Za-z0-9_-]+)/.exec(last)?.[1] ?? null) : null;
}

/**
 * Enrols a member from a token (their link): password, then an authenticator app; answers the
 * full session and the app's secret.
 */
export async function enrolWith(s: TestServer, token: string): Promise<{ token: string; secret: string }> {
  const enrolled = await opsCall(s, 'enrol', null, { token, password: STAFF_PASSWORD });
  if (enrolled.body.msg !== 'ok') throw new Error(`enrol failed: ${JSON.stringify(enrolled.body)}`);
  const session = enrolled.body.data.token as string;
  const secret = (await opsCall(s, 'totpBegin', session)).body.data.secret as string;
  const confirmed = await opsCall(s, 'totpConfirm', session, { code: totpCode(secret, s.clock.now()) });
  if (confirmed.body.msg !== 'ok') throw new Error(`totp failed: ${JSON.stringify(confirmed.body)}`);
  return { token: session, secret };
}

/**
 * A member `admin` adds through the back office (step-up first), enrolled from the link in their
 * own mail: the insider's second account of the maker-checker attacks.
 */
export async function addedMember(s: TestServer, admin: Member, role: Role, login: string): Promise<Member> {
  await stepUp(s, admin);
  const contact = `${login}@bourse.example`;
  const r = await opsCall(s, 'staffAdd', admin.token, { login, name: login, role, contact });
  if (r.body.msg !== 'ok') throw new Error(`staffAdd failed: ${JSON.stringify(r.body)}`);
  const { token, secret } = await enrolWith(s, outboxToken(s, contact)!);
  return { id: r.body.data.staff.id, login, role, token, secret };
}
