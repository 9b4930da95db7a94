import wallet from '../../locales/en/wallet.json';
import type { CustomerMatch, CustomerName, WorkType } from '../shared/backoffice';
import { formatDate, formatDateTime, formatMessageTime, formatMoney, formatTime } from '../shared/format';
import { KYC_STATUS, LEDGER_REASONS, type LedgerReason, LOAN_STATE } from '../shared/status';
import { serverNow } from './api';

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
/** A message's time: the clock alone today (by the server's clock), else the date and clock. */
export const stamp = (ms: number) => formatMessageTime(ms, 'en', serverNow());

/**
 * A ledger posting's reason in words: the customer app's English bill labels (one wording for the
 * customer's statement and the desk), the code itself only for a reason the app does not know.
 */
const REASON_WORDS: Record<LedgerReason, string> = wallet.bill.reason;
export const reasonLabel = (reason: string) =>
  (LEDGER_REASONS as readonly string[]).includes(reason) ? REASON_WORDS[reason as LedgerReason] : reason;

/** Who asked for a second approval: a member by name, the console's operator said as such. */
export const makerOf = (a: { maker: string; makerName: string }) =>
  a.maker.startsWith('cli:') ? `${a.makerName} (console)` : a.makerName;

/** How staff call a customer: their name, else their phone. */
export const customerLabel = (c: { phone: string; customer?: CustomerName | null }) =>
  c.customer?.name ?? c.phone;

/** Whether a name is one the customer proved (an approved real-name check). */
export const nameVerified = (c: CustomerName) => c.nameFrom === 'kyc' && c.kycStatus === KYC_STATUS.approved;

/** Where a customer's name comes from, for the line under it. */
export function nameSource(c: CustomerName): string {
  if (c.nameFrom === 'kyc')
    return c.kycStatus === KYC_STATUS.approved ? 'Verified name' : 'Name given, not verified';
  if (c.nameFrom === 'card') return 'Name on the bank card, not verified';
  return 'No name given';
}

/** How a search found a customer, beside the hit. */
export const MATCH_LABEL: Record<CustomerMatch, string> = {
  phone: 'Phone',
  card: 'Card number',
  idNumber: 'ID number',
  account: 'Account number',
  phoneEnd: 'Last 4 of the phone',
  cardEnd: 'Last 4 of a card',
  phoneStart: 'Start of the phone',
  name: 'Name',
  nameStart: 'Name',
  namePart: 'Part of a name',
};

export const KYC_LABEL: Record<number, string> = {
  [KYC_STATUS.none]: 'Not submitted',
  [KYC_STATUS.underReview]: 'Under review',
  [KYC_STATUS.approved]: 'Approved',
  [KYC_STATUS.rejected]: 'Rejected',
};

/** Each queue's name on its tile; keyed by WorkType so a new kind of work cannot show a blank tile. */
export const WORK_LABEL: Record<WorkType, string> = {
  chat: 'Chats',
  approval: 'Second approvals',
  deposit: 'Deposits to confirm',
  withdrawal: 'Held withdrawals',
  kyc: 'Real-name reviews',
  loan: 'Loan applications',
  ipo: 'IPO allotments',
  account: 'Account controls',
};

export { HOLD_LABEL } from '../shared/backoffice';

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
