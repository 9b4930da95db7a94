import { formatDate, formatDateTime, formatMoney, formatTime } from '../shared/format';
import { KYC_STATUS, LOAN_STATE } from '../shared/status';

/**
 * How the back office writes amounts, times and ages, through the app's own formatters
 * (src/shared/format.ts). Amounts come from the server as exact decimal strings, grouped the Indian
 * way as staff read rupees (₹2,00,000.00).
 */

export function rupees(amount: string | null | undefined): string {
  return amount === null || amount === undefined ? '—' : formatMoney(amount);
}

/** A masked card number as people read one: •••• 4321. */
export const cardTail = (masked: string) => `•••• ${masked.replace(/^\*+/, '')}`;

/** A duration as staff read it: 45 s, 12 min, 3 h 20 min, 2 d 4 h. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** "24/11/2026, 14:05": dates as the app writes them (src/shared/format.ts), in English. */
export const when = (ms: number | null | undefined) => (ms ? formatDateTime(ms, 'en') : '—');
/** "24/11/2026 14:05:09": to the second, where the order of events matters (audit, approvals). */
export const exactly = (ms: number | null | undefined) =>
  ms ? `${formatDate(ms, 'en')} ${formatTime(ms, 'en')}` : '—';
export const iso = (ms: number) => new Date(ms).toISOString();

export const KYC_LABEL: Record<number, string> = {
  [KYC_STATUS.none]: 'Not submitted',
  [KYC_STATUS.underReview]: 'Under review',
  [KYC_STATUS.approved]: 'Approved',
  [KYC_STATUS.rejected]: 'Rejected',
};

export const WORK_LABEL: Record<string, string> = {
  chat: 'Chats',
  approval: 'Second approvals',
  withdrawal: 'Held withdrawals',
  kyc: 'Real-name reviews',
  loan: 'Loan applications',
  ipo: 'IPO allotments',
};

export const HOLD_LABEL: Record<string, string> = {
  'wallet.hold.newCard': 'Card added or changed in the last 24 h',
  'wallet.hold.review': 'Above the approval threshold',
};

export const LOAN_LABEL: Record<number, string> = {
  [LOAN_STATE.unapplied]: 'Not applied',
  [LOAN_STATE.applying]: 'Applying',
  [LOAN_STATE.approved]: 'Approved',
  [LOAN_STATE.rejected]: 'Rejected',
  [LOAN_STATE.unpaid]: 'Unpaid',
  [LOAN_STATE.paid]: 'Paid',
};

export const ROLE_LABEL: Record<string, string> = {
  support: 'Support',
  kyc: 'KYC officer',
  payments: 'Payments operator',
  approver: 'Approver',
  admin: 'Admin',
};
