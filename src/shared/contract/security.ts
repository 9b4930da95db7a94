import * as Type from '@sinclair/typebox';
import type { LoginAnswer } from './account';
import { endpoint } from './define';
import { Code, Epoch, NoQuery, Recovery, RowId, Strict } from './schemas';

/**
 * Two-factor sign-in: passkeys (WebAuthn, user verification required), an
 * authenticator app (TOTP), recovery codes, the second step of a sign-in and the app lock's
 * unlock. `steps` entries are also open to the password-only step session SPEC's login answers
 * with while a second factor is due (`enrol`: none set up yet; `verify`: one to give).
 */

/** A passkey as its owner sees it; the public key lets the device check an unlock offline. */
export interface PasskeyRow {
  id: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
  /** Its signature counter went backwards (a copied authenticator): refused until removed. */
  flagged: boolean;
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  backed_up: boolean;
}

export interface SecurityState {
  /** REQUIRE_2FA: every sign-in needs a second factor, and the last one cannot be removed. */
  required: boolean;
  passkeys: PasskeyRow[];
  totp: boolean;
  recovery_left: number;
  /** The WebAuthn relying party (the app's domain), for the device's own checks. */
  rp_id: string;
}

/**
 * WebAuthn options as JSON (`PublicKeyCredentialCreationOptionsJSON` /
 * `PublicKeyCredentialRequestOptionsJSON`, which the browser library takes as they are).
 */
export interface WebAuthnOptions {
  challenge: string;
  rpId?: string;
  [field: string]: unknown;
}

/**
 * A factor change or password reset made from another device: shown on this device's
 * next sign-in — "Your security changed on …, from …" — until acknowledged.
 */
export interface SecurityChange {
  id: number;
  event:
    | 'passkeyAdded'
    | 'passkeyRemoved'
    | 'totpAdded'
    | 'totpRemoved'
    | 'recoveryRenewed'
    | 'passwordReset'
    /** Staff removed every factor at the customer's request (server/account/controls.ts). */
    | 'factorReset'
    /** Staff made the login password unusable: the customer sets a new one with forgot-password. */
    | 'staffPasswordReset';
  at: number;
  /** The device it came from, as the user knows it ("Chrome on Android"). */
  from: string;
  /** The address it came from. */
  address: string;
}

/** What enrolling a factor answers: new recovery codes (first factor), and a full session when it ended an `enrol` step. */
export interface Enrolled {
  /** Shown once, never again: null when the account already had a set. */
  recovery_codes: string[] | null;
  session: LoginAnswer | null;
}

const B64 = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
const Extensions = Type.Object({}, { additionalProperties: true, maxProperties: 16 });
const Attachment = Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]));

/** `navigator.credentials.get()`'s answer as JSON (@simplewebauthn/browser startAuthentication). */
export const AssertionJson = Strict({
  id: B64(1024),
  rawId: B64(1024),
  type: Type.Literal('public-key'),
  response: Strict({
    clientDataJSON: B64(8192),
    authenticatorData: B64(8192),
    signature: B64(2048),
    userHandle: Type.Optional(Type.String({ maxLength: 512, pattern: '^[A-Za-z0-9_-]*={0,2}$' })),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: Extensions,
});

/** `navigator.credentials.create()`'s answer as JSON (startRegistration). */
const AttestationJson = Strict({
  id: B64(1024),
  rawId: B64(1024),
  type: Type.Literal('public-key'),
  response: Strict({
    clientDataJSON: B64(8192),
    attestationObject: B64(32768),
    authenticatorData: Type.Optional(B64(16384)),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -65536, maximum: 65536 })),
    publicKey: Type.Optional(B64(4096)),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: Extensions,
});

/** One proof of a second factor: exactly one of a passkey's assertion, an app's code, a recovery code. */
export const ProofFields = {
  passkey: Type.Optional(AssertionJson),
  code: Type.Optional(Code),
  recovery: Type.Optional(Recovery),
};
export const PasskeyName = Type.String({ minLength: 1, maxLength: 40 });

export const securityContract = {
  /** What the caller has set up (Settings → Security; also during a forced enrolment). */
  securityState: endpoint<SecurityState>()({
    method: 'GET',
    path: '/stock/success/v2/security',
    auth: true,
    steps: ['enrol'],
    req: NoQuery,
  }),
  /**
   * Options to create a passkey (a fresh challenge, for this session only). Where the account has a
   * factor already, this takes the session's fresh step-up (`stepUp`): only a proof of an existing
   * factor adds another.
   */
  passkeyOptions: endpoint<WebAuthnOptions>()({
    method: 'POST',
    path: '/stock/success/v2/passkey/options',
    auth: true,
    steps: ['enrol'],
    req: Strict({}),
  }),
  /** Keeps the passkey just created, under a name the user chose. */
  passkeyAdd: endpoint<Enrolled & { passkey: PasskeyRow }>()({
    method: 'POST',
    path: '/stock/success/v2/passkey/add',
    auth: true,
    steps: ['enrol'],
    req: Strict({ response: AttestationJson, name: PasskeyName }),
  }),
  passkeyRename: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/v2/passkey/rename',
    auth: true,
    req: Strict({ id: RowId, name: PasskeyName }),
  }),
  /** Removing a factor needs a second factor, and ends the caller's other sessions. */
  passkeyRemove: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/v2/passkey/remove',
    auth: true,
    req: Strict({ id: RowId, ...ProofFields }),
  }),
  /**
   * Starts an authenticator app's enrolment: its secret (as text and as an otpauth:// URI for the
   * QR code), pending for this session only (another session's pending one: `errors.totpPending`).
   * Where the account has a factor already, this takes the session's fresh step-up (`stepUp`).
   */
  totpSetup: endpoint<{ secret: string; uri: string }>()({
    method: 'POST',
    path: '/stock/success/v2/totp/setup',
    auth: true,
    steps: ['enrol'],
    req: Strict({}),
  }),
  /** The app's first code turns it on. */
  totpConfirm: endpoint<Enrolled>()({
    method: 'POST',
    path: '/stock/success/v2/totp/confirm',
    auth: true,
    steps: ['enrol'],
    req: Strict({ code: Code }),
  }),
  totpRemove: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/v2/totp/remove',
    auth: true,
    req: Strict(ProofFields),
  }),
  /** A new set of ten recovery codes (the old set stops working). */
  recoveryRenew: endpoint<{ recovery_codes: string[] }>()({
    method: 'POST',
    path: '/stock/success/v2/recovery/renew',
    auth: true,
    req: Strict(ProofFields),
  }),
  /**
   * Step-up: one proof of a factor the account has marks this session for
   * STEP_UP_MS; the next change that needs it (a factor added, a bank card, a withdrawal, a new
   * login password, the first transaction password: contract entries marked `stepUp`, and
   * `passkeyOptions`, `totpSetup`, `passwordUp`) uses it up. Answers until when it is fresh.
   */
  stepUp: endpoint<{ fresh_until: number }>()({
    method: 'POST',
    path: '/stock/success/v2/security/step-up',
    auth: true,
    req: Strict(ProofFields),
  }),
  /** Factor changes and password resets made from another device, not yet acknowledged on this one. */
  securityChanges: endpoint<SecurityChange[]>()({
    method: 'GET',
    path: '/stock/success/v2/security/changes',
    auth: true,
    req: NoQuery,
  }),
  /** This device acknowledges the changes it was shown, up to the newest one's time. */
  securityChangesSeen: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/v2/security/changes/seen',
    auth: true,
    req: Strict({ up_to: Epoch }),
  }),
  /** Options to sign with a passkey: the second step, a removal's proof, a step-up, or the app lock. */
  factorChallenge: endpoint<WebAuthnOptions>()({
    method: 'POST',
    path: '/stock/success/v2/security/challenge',
    auth: true,
    steps: ['verify'],
    req: Strict({}),
  }),
  /**
   * The second step of a sign-in: a `verify` step session gives one proof and gets SPEC's login
   * answer with a full session (the step's token ends).
   */
  secondFactor: endpoint<LoginAnswer>()({
    method: 'POST',
    path: '/stock/user/second-factor',
    auth: true,
    steps: ['verify'],
    req: Strict(ProofFields),
  }),
  /** Opens the app lock online: the login password or a passkey. */
  unlock: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/v2/unlock',
    auth: true,
    req: Strict({
      password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
      passkey: Type.Optional(AssertionJson),
    }),
  }),
};
