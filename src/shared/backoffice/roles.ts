/**
 * Who may make a back-office call: staff roles, what each may do, and a session's stages. Every
 * call of `OPS_API` names a capability (define.ts `OpsEndpoint`), so this imports nothing.
 */

/** Staff roles. */
export const ROLES = ['support', 'kyc', 'payments', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a role may do; every call names one (or `session`: any signed-in staff, `public`: none). */
export const CAPABILITIES = {
  /** Queues, claims, customer search and view, staff notes. */
  work: ['support', 'kyc', 'payments', 'approver', 'admin'],
  chat: ['support', 'admin'],
  kyc: ['kyc', 'admin'],
  /** Payouts (pay, reject, release), deposits (confirm, reject), IPO allotment proposals. */
  pay: ['payments', 'admin'],
  /** Second approvals, loan decisions, running an allotment, the FX rate. */
  approve: ['approver', 'admin'],
  news: ['support', 'admin'],
  audit: ['approver', 'admin'],
  staff: ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Capability = keyof typeof CAPABILITIES;

export function roleCan(role: string, cap: Capability): boolean {
  return (CAPABILITIES[cap] as readonly string[]).includes(role);
}

export type Stage = 'enrol' | 'verify' | 'full';
