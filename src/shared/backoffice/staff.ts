/** Signing in (the only calls without a full session) and the staff list. */

import * as Type from '@sinclair/typebox';
import { OneOf, RowId, Strict, Text } from '../contract/schemas';
import { ById, Code, Empty, ops, Proof, WebAuthnJson } from './define';
import { type Capability, ROLES, type Role, type Stage } from './roles';

export interface Me {
  id: number;
  login: string;
  name: string;
  role: Role;
  stage: Stage;
  caps: Capability[];
  /** Until when the last second factor counts as fresh (0: never given or stale). */
  freshUntil: number;
  expiresAt: number;
  idleMs: number;
  factors: { totp: boolean; passkeys: number };
}

export interface SignedIn {
  token: string;
  stage: Stage;
  factors: { totp: boolean; passkeys: number };
}

export interface StaffRow {
  id: number;
  login: string;
  name: string;
  role: Role;
  enrolled: boolean;
  disabled: boolean;
  createdAt: number;
  /** Where their enrolment links go, masked (`a•••@example.com`). */
  contact: string | null;
  /** Who added them: `staff:<id>` or `cli:<operator>`. */
  createdBy: string;
}

export const signInOps = {
  login: ops<SignedIn>()({
    method: 'POST',
    path: '/auth/login',
    cap: 'public',
    req: Strict({ login: Text(64), password: Text(256) }),
  }),
  enrol: ops<SignedIn>()({
    method: 'POST',
    path: '/auth/enrol',
    cap: 'public',
    req: Strict({ token: Type.String({ minLength: 20, maxLength: 128 }), password: Text(256) }),
  }),
  totpBegin: ops<{ secret: string; uri: string }>()({
    method: 'POST',
    path: '/auth/totp/begin',
    cap: 'session',
    stages: ['enrol'],
    req: Empty,
  }),
  totpConfirm: ops<{ stage: Stage }>()({
    method: 'POST',
    path: '/auth/totp/confirm',
    cap: 'session',
    stages: ['enrol'],
    req: Strict({ code: Code }),
  }),
  passkeyRegisterOptions: ops<unknown>()({
    method: 'POST',
    path: '/auth/passkey/register-options',
    cap: 'session',
    stages: ['enrol'],
    req: Empty,
  }),
  passkeyRegister: ops<{ stage: Stage }>()({
    method: 'POST',
    path: '/auth/passkey/register',
    cap: 'session',
    stages: ['enrol'],
    req: Strict({ response: WebAuthnJson }),
  }),
  passkeyOptions: ops<unknown>()({
    method: 'POST',
    path: '/auth/passkey/options',
    cap: 'session',
    stages: ['verify', 'full'],
    req: Empty,
  }),
  /** The second step of a sign-in, and the step-up of a full session. */
  verify: ops<{ stage: Stage; freshUntil: number }>()({
    method: 'POST',
    path: '/auth/verify',
    cap: 'session',
    stages: ['verify', 'full'],
    req: Proof,
  }),
  logout: ops<null>()({
    method: 'POST',
    path: '/auth/logout',
    cap: 'session',
    stages: ['enrol', 'verify', 'full'],
    req: Empty,
  }),
  me: ops<Me>()({
    method: 'GET',
    path: '/me',
    cap: 'session',
    stages: ['enrol', 'verify', 'full'],
    req: Empty,
  }),
} as const;

export const staffOps = {
  staff: ops<StaffRow[]>()({ method: 'GET', path: '/staff', cap: 'staff', req: Empty }),
  /** The enrolment link goes to `contact`, never into the answer (`sentTo`: the masked address). */
  staffAdd: ops<{ staff: StaffRow; sentTo: string }>()({
    method: 'POST',
    path: '/staff',
    cap: 'staff',
    stepUp: true,
    req: Strict({ login: Text(32), name: Text(80), role: OneOf(ROLES), contact: Text(254) }),
  }),
  /** A member who lost their factor: factors and sessions end, a new link goes to their contact. */
  staffReenrol: ops<{ staff: StaffRow; sentTo: string }>()({
    method: 'POST',
    path: '/staff/reenrol',
    cap: 'staff',
    stepUp: true,
    req: ById,
  }),
  staffRole: ops<StaffRow>()({
    method: 'POST',
    path: '/staff/role',
    cap: 'staff',
    stepUp: true,
    req: Strict({ id: RowId, role: OneOf(ROLES) }),
  }),
  staffDisable: ops<StaffRow>()({
    method: 'POST',
    path: '/staff/disable',
    cap: 'staff',
    stepUp: true,
    req: ById,
  }),
} as const;
