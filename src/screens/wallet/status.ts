import type { LoanRecord, RechargeRecord, WithdrawRecord } from '../../shared/contract/wallet';
import type { Tone } from '../invest/parts';

/** SPEC §4 labels of wallet records; a value the app does not know gets the unknown label. */
export interface StatusLabel {
  key: string;
  tone: Tone;
}

const UNKNOWN: StatusLabel = { key: 'wallet.status.unknown', tone: 'warn' };

const RECHARGE: Record<string, StatusLabel> = {
  1: { key: 'wallet.status.inProgress', tone: 'info' },
  2: { key: 'wallet.status.completed', tone: 'success' },
  3: { key: 'wallet.status.failed', tone: 'danger' },
};

const WITHDRAW: Record<string, StatusLabel> = {
  n: { key: 'wallet.status.inProgress', tone: 'info' },
  y: { key: 'wallet.status.completed', tone: 'success' },
  b: { key: 'wallet.status.failed', tone: 'danger' },
};

const LOAN: Record<string, StatusLabel> = {
  0: { key: 'wallet.loan.state.0', tone: 'muted' },
  1: { key: 'wallet.loan.state.1', tone: 'info' },
  2: { key: 'wallet.loan.state.2', tone: 'success' },
  3: { key: 'wallet.loan.state.3', tone: 'danger' },
  4: { key: 'wallet.loan.state.4', tone: 'warn' },
  5: { key: 'wallet.loan.state.5', tone: 'success' },
};

/** Recharge 1 in progress, 2 completed, 3 failed. */
export function rechargeStatus(status: RechargeRecord['status'] | number): StatusLabel {
  return RECHARGE[String(status)] ?? UNKNOWN;
}

/** Withdraw n in progress, y completed, b failed (refunded). */
export function withdrawStatus(status: WithdrawRecord['status'] | string): StatusLabel {
  return WITHDRAW[String(status)] ?? UNKNOWN;
}

/** Either record's status. */
export function recordStatus(record: RechargeRecord | WithdrawRecord): StatusLabel {
  return record.type === 'recharge' ? rechargeStatus(record.status) : withdrawStatus(record.status);
}

/** A record still waiting for the provider or the operator: worth polling until it settles. */
export function isPending(record: RechargeRecord | WithdrawRecord): boolean {
  return record.type === 'recharge' ? record.status === 1 : record.status === 'n';
}

/** Loan 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid. */
export function loanState(state: LoanRecord['state'] | number): StatusLabel {
  return LOAN[String(state)] ?? { key: 'wallet.loan.state.unknown', tone: 'warn' };
}

/**
 * Every ledger reason (SPEC §3 and the server's refunds) has a translation in wallet.json (bill reasons);
 * a reason a newer server adds shows as "other" rather than as a raw key.
 */
export function reasonKey(reason: string, exists: (key: string) => boolean): string {
  const key = `bill.reason.${reason}`;
  return exists(key) ? key : 'wallet.changes.otherReason';
}
