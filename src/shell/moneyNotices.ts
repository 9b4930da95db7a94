import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { listen } from '../api/client';
import { isClaimed } from '../api/money';
import { loadAllMessages } from '../i18n/index';
import { toast } from '../store/ui';

/** What a money call was, for the notice of one that settled after its screen was left. */
const MONEY_ACTION: Record<string, string> = {
  dealBuy: 'trade.buy',
  dealSell: 'trade.sell',
  recharge: 'wallet.recharge.title',
  withdraw: 'wallet.withdraw.title',
  loanApply: 'wallet.loan.title',
  loanRepay: 'wallet.loanRecords.repay',
  ipoBuy: 'ipo.title',
  fundPurchase: 'fund.invest',
  fundRedeem: 'fund.redeem',
  fundCancel: 'fund.cancel',
  orderCancel: 'records.cancel',
  orderModify: 'records.modify.open',
};

/**
 * A money call that was unconfirmed when its screen was left still gets its answer: the shell
 * announces it (a screen that waits on the call shows it itself).
 */
export function useMoneyNotices(): void {
  const { t } = useTranslation();
  useEffect(
    () =>
      listen('money', (view) => {
        const result = view.result;
        // A reply its screen awaited is that screen's to show (it may have just stopped waiting).
        if (!result || !view.late || isClaimed(view.key)) return;
        // The words of any screen's call and of any refusal (src/i18n: the first screen has only its own).
        void loadAllMessages().then(() => {
          const what = t(MONEY_ACTION[view.name] ?? 'trade.buy');
          if (result.ok) toast('core.money.settled', 'success', { what });
          else toast('core.money.settledRejected', 'error', { what: `${what} — ${t(result.error)}` });
        });
      }),
    [t],
  );
}
