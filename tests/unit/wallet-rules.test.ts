import { describe, expect, it } from 'vitest';
import {
  checkLoanForm,
  checkRechargeForm,
  checkWithdrawForm,
  loanInline,
  rechargeInline,
  typedAmount,
  withdrawInline,
  withdrawMinimum,
} from '#shared/rules';
import {
  isPending,
  loanState,
  reasonKey,
  rechargeStatus,
  withdrawStatus,
} from '../../src/screens/_parts/wallet/status';

describe('wallet amounts (SPEC §5)', () => {
  it('keeps digits only, at most the contract’s 10', () => {
    expect(typedAmount('5,000.50 ₹')).toBe('500050');
    expect(typedAmount('12345678901234')).toBe('1234567890');
  });

  it('recharge: says nothing while empty, shows the minimum below 5000, and explains a submit', () => {
    expect(rechargeInline('')).toBeNull();
    expect(rechargeInline('4999')).toBe('errors.rechargeMin');
    expect(rechargeInline('5000')).toBeNull();
    expect(rechargeInline('0')).toBe('wallet.recharge.invalidAmount');
    expect(checkRechargeForm(null, '')).toBe('wallet.recharge.enterAmount');
    expect(checkRechargeForm(null, '6000')).toBe('wallet.recharge.selectMethod');
    expect(checkRechargeForm('bank', '00')).toBe('wallet.recharge.invalidAmount');
    expect(checkRechargeForm('bank', '4999')).toBe('errors.rechargeMin');
    expect(checkRechargeForm('bank', '5000')).toBeNull();
  });

  it('withdraw: a card, the larger of 10 and the configured minimum, no more than available', () => {
    const min = withdrawMinimum(250);
    expect(min).toBe(250);
    expect(withdrawMinimum(3)).toBe(10);
    expect(withdrawInline('', min, '1000.00')).toBeNull();
    expect(withdrawInline('249', min, '1000.00')).toBe('errors.withdrawMin');
    expect(withdrawInline('250', min, '1000.00')).toBeNull();
    expect(withdrawInline('1000', min, '1000.00')).toBeNull();
    expect(withdrawInline('1001', min, '1000.99')).toBe('errors.insufficientFunds');
    expect(withdrawInline('1001', min, undefined)).toBeNull();
    expect(checkWithdrawForm(null, '300', min, '1000.00')).toBe('wallet.withdraw.selectCard');
    expect(checkWithdrawForm(7, '', min, '1000.00')).toBe('wallet.withdraw.enterAmount');
    expect(checkWithdrawForm(7, '300', min, '1000.00')).toBeNull();
  });

  it('loan: at least 500, at most the remaining credit', () => {
    expect(loanInline('')).toBeNull();
    expect(loanInline('499')).toBe('errors.loanMin');
    expect(loanInline('500', '10000.00')).toBeNull();
    expect(loanInline('10001', '10000.00')).toBe('errors.loanOverLimit');
    expect(checkLoanForm('')).toBe('wallet.loan.enterAmount');
    expect(checkLoanForm('499')).toBe('errors.loanMin');
    expect(checkLoanForm('800', '10000.00')).toBeNull();
  });
});

describe('wallet statuses (SPEC §4)', () => {
  it('labels recharge 1/2/3, withdraw n/y/b, loans 0–5, and anything else as unknown', () => {
    expect([1, 2, 3, 9].map((v) => rechargeStatus(v).key)).toEqual([
      'wallet.status.inProgress',
      'wallet.status.completed',
      'wallet.status.failed',
      'wallet.status.unknown',
    ]);
    expect(['n', 'y', 'b', 'x'].map((v) => withdrawStatus(v).key)).toEqual([
      'wallet.status.inProgress',
      'wallet.status.completed',
      'wallet.status.failed',
      'wallet.status.unknown',
    ]);
    expect([0, 1, 2, 3, 4, 5, 6].map((v) => loanState(v).key)).toEqual([
      'wallet.loan.state.0',
      'wallet.loan.state.1',
      'wallet.loan.state.2',
      'wallet.loan.state.3',
      'wallet.loan.state.4',
      'wallet.loan.state.5',
      'wallet.loan.state.unknown',
    ]);
  });

  it('knows which records are still waiting', () => {
    const base = { id: 1, count: '5000.00', actual: '0.00', created_at: 0, updated_at: 0 };
    expect(isPending({ ...base, type: 'recharge', method: 'bank', status: 1 })).toBe(true);
    expect(isPending({ ...base, type: 'recharge', method: 'bank', status: 2 })).toBe(false);
    const bank = { id: 1, bank: 'B', bank_card: '****1234' };
    expect(isPending({ ...base, type: 'withdraw', bank, hold: null, status: 'n' })).toBe(true);
    expect(isPending({ ...base, type: 'withdraw', bank, hold: null, status: 'b' })).toBe(false);
  });

  it('translates a known bill reason and shows an unknown one as other', () => {
    const known = new Set(['bill.reason.recharge']);
    expect(reasonKey('recharge', (k) => known.has(k))).toBe('bill.reason.recharge');
    expect(reasonKey('newThing', (k) => known.has(k))).toBe('wallet.changes.otherReason');
  });
});

describe('bill reasons', () => {
  it('every reason the ledger can post has a text in every language', async () => {
    const { LEDGER_REASONS } = await import('../../src/shared/status');
    for (const lng of ['en', 'zh', 'es', 'de']) {
      const { default: texts } = await import(`../../locales/${lng}/wallet.json`);
      for (const reason of LEDGER_REASONS) expect(texts.bill.reason[reason], `${lng}:${reason}`).toBeTruthy();
    }
  });
});
