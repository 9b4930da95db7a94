import type { LoanRecord, RechargeRecord, WithdrawRecord } from '../../../shared/contract/wallet';
import { LOAN_STATE, RECHARGE_STATUS, WITHDRAW_STATUS } from '../../../shared/status';
import type { Tone } from '../../../ui';

/** SPEC §4 labels of wallet records; a value the app does not know gets the unknown label. */
export interface StatusLabel {
  key: string;
  tone: Tone;
}

const UNKNOWN: StatusLabel = { key: 'wallet.status.unknown', tone: 'warn' };

const IN_PROGRESS: StatusLabel = { key: 'wallet.status.inProgress', tone: 'info' };
const COMPLETED: StatusLabel = { key: 'wallet.status.completed', tone: 'success' };
const FAILED: StatusLabel = { key: 'wallet.status.failed', tone: 'danger' };

const RECHARGE: Record<string, StatusLabel> = {
  [RECHARGE_STATUS.inProgress]: IN_PROGRESS,
  [RECHARGE_STATUS.completed]: COMPLETED,
  [RECHARGE_STATUS.failed]: FAILED,
};

const WITHDRAW: Record<string, StatusLabel> = {
  [WITHDRAW_STATUS.inProgress]: IN_PROGRESS,
  [WITHDRAW_STATUS.paid]: COMPLETED,
  [WITHDRAW_STATUS.failed]: FAILED,
};

/** Each state's label key is `wallet.loan.state.<value>`. */
const LOAN_TONE: Record<string, Tone> = {
  [LOAN_STATE.unapplied]: 'muted',
  [LOAN_STATE.applying]: 'info',
  [LOAN_STATE.approved]: 'success',
  [LOAN_STATE.rejected]: 'danger',
  [LOAN_STATE.unpaid]: 'warn',
  [LOAN_STATE.paid]: 'success',
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
  return record.type === 'recharge'
    ? record.status === RECHARGE_STATUS.inProgress
    : record.status === WITHDRAW_STATUS.inProgress;
}

/** Loan 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid. */
export function loanState(state: LoanRecord['state'] | number): StatusLabel {
  const tone = LOAN_TONE[String(state)];
  return tone
    ? { key: `wallet.loan.state.${state}`, tone }
    : { key: 'wallet.loan.state.unknown', tone: 'warn' };
}

/**
 * Every ledger reason (SPEC §3 and the server's refunds) has a translation in wallet.json (bill reasons);
 * a reason a newer server adds shows as "other" rather than as a raw key.
 */
export function reasonKey(reason: string, exists: (key: string) => boolean): string {
  const key = `bill.reason.${reason}`;
  return exists(key) ? key : 'wallet.changes.otherReason';
}
