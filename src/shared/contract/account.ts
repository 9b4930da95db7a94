import * as Type from '@sinclair/typebox';
import type { Money } from '../money';
import { endpoint } from './define';
import { Code, DeviceId, Recovery, Strict } from './schemas';

/** Phone numbers and passwords are checked by shared/rules after the shape check. */
const Phone = Type.String({ maxLength: 32 });
const Password = Type.String({ maxLength: 128 });

export interface LoginAnswer {
  token: string;
  id: number;
  user: string;
  /** Time of this login (epoch ms). */
  login: number;
  /**
   * Two-factor sign-in: present when the password alone opened only a step — `token`
   * then serves the second step (or a first factor's enrolment) and nothing else. Absent for
   * accounts and modes without two factors: SPEC's answer, a full session.
   */
  second?: SecondStep;
}

/** A login answer that opened only the second step: its token serves that step alone. */
export type PendingStep = LoginAnswer & { second: SecondStep };

/** Which step a password-only session is at, and how it may go on. */
export interface SecondStep {
  stage: 'verify' | 'enrol';
  /** The proofs this account can give (verify), or the factors it may set up (enrol). */
  methods: Array<'passkey' | 'totp' | 'recovery'>;
  /** When the step session ends (epoch ms). */
  expires_at: number;
}

export interface UserInfo {
  id: number;
  user: string;
  /** Public id shown to the user. */
  no: string;
  img: string | null;
  /**
   * The hero's total (portfolio summary `hero`): available + reserved (pending buys, IPO
   * applications, withdrawals in progress) + holdings at the server's prices + funds − loans due.
   */
  total: Money;
  /** Available balance. */
  money: Money;
  /** Loans due: outstanding principal and what accrued on it. */
  loan: Money;
  has_fund_password: boolean;
  /**
   * Staff froze the account (server/account/freeze.ts): its money calls are refused until two of
   * them unfreeze it. The app says so before the customer tries (shell/FrozenBanner.tsx).
   */
  frozen: boolean;
}

/**
 * What became of a money call sent with an Idempotency-Key (for its owner only): the server's
 * stored answer — `ok` with its data, or `no` with the rejection's i18n key — or not found, which
 * means the request never reached the server (or has not finished: resend it with the same key).
 */
export type MoneyOutcome =
  | { found: false }
  | { found: true; status: number; answer: { msg: 'ok' | 'no'; data: unknown } };

/** Same pattern as the Idempotency-Key header the server accepts (lib/route.ts). */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_-]{8,100}$';

/**
 * A new account's first steps, each from the server's own state: identity (the
 * real-name status: 0 none, 1 under review, 2 verified, 3 rejected), the transaction password,
 * a bank card, a completed recharge, and an instrument in a watchlist.
 */
export interface Onboarding {
  identity: 0 | 1 | 2 | 3;
  trade_password: boolean;
  bank_card: boolean;
  funded: boolean;
  watchlist: boolean;
  /**
   * A second factor is set up. Offered beside the checklist where it is optional (the
   * demo); not one of the steps `done` counts.
   */
  second_factor: boolean;
  /** Every step done: the checklist leaves Home. */
  done: boolean;
}

export const accountContract = {
  login: endpoint<LoginAnswer>()({
    method: 'POST',
    path: '/stock/user/login',
    auth: false,
    req: Strict({ user: Phone, password: Password, device: Type.Optional(DeviceId) }),
  }),
  register: endpoint<{ id: number }>()({
    method: 'POST',
    path: '/stock/user/reg',
    auth: false,
    req: Strict({ user: Phone, password: Password, code: Type.String({ maxLength: 64 }) }),
  }),
  /**
   * Forgot password (SPEC §5). Where the account has a second factor, the old password
   * alone is not enough: an authenticator code (`code`) or a recovery code (`recovery`) too —
   * without one, 400 `errors.resetNeedsFactor`. A reset ends every session, is shown on the
   * other devices and holds withdrawals for FACTOR_SETTLE_MS.
   */
  forget: endpoint<null>()({
    method: 'POST',
    path: '/v2/user/forget',
    auth: false,
    req: Strict({
      user: Phone,
      password: Password,
      new_password: Password,
      code: Type.Optional(Code),
      recovery: Type.Optional(Recovery),
      device: Type.Optional(DeviceId),
    }),
  }),
  moneyOutcome: endpoint<MoneyOutcome>()({
    method: 'GET',
    path: '/stock/success/v2/idempotency',
    auth: true,
    req: Strict({ key: Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, maxLength: 100 }) }),
  }),
  userInfo: endpoint<UserInfo>()({
    method: 'GET',
    path: '/stock/success/v2/user/info',
    auth: true,
    req: Type.Object({}),
  }),
  onboarding: endpoint<Onboarding>()({
    method: 'GET',
    path: '/stock/success/v2/onboarding',
    auth: true,
    req: Type.Object({}),
  }),
  /** Also ends a two-factor sign-in's step (the user went back to the password). */
  logout: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/user/logout',
    auth: true,
    steps: ['verify', 'enrol'],
    req: Strict({}),
  }),
};
