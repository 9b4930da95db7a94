import type { Migration } from 'kysely';
import type { Dialect } from '../dialect';
import { migration001 } from './001_init';
import { migration010 } from './010_trading';
import { migration030 } from './030_wallet';
import { migration035 } from './035_hot_reads';
import { migration040 } from './040_order_reason';
import { migration041 } from './041_money_safety';
import { migration046 } from './046_watchlists_alerts';
import { migration047 } from './047_product_facts';
import { migration048 } from './048_order_charges';
import { migration048OrderTypes } from './048_order_types';
import { migration048WithdrawHold } from './048_withdraw_hold';
import { migration049Factors } from './049_factors';
import { migration049OpenBuys } from './049_open_buys';
import { migration049 } from './049_portfolio';
import { migration049StepUp } from './049_step_up';
import { migration049TradingAmo } from './049_trading_amo';
import { migration049TradingGtt } from './049_trading_gtt';
import { migration049TradingOco } from './049_trading_oco';
import { migration060InboxWindow } from './060_inbox_window';
import { migration061LedgerAudits } from './061_ledger_audits';
import { migration070Backoffice } from './070_backoffice';
import { migration071AuditSeal } from './071_audit_seal';
import { migration072StaffPeople } from './072_staff_people';
import { migration073KycIdIndex } from './073_kyc_id_index';
import { migration074CustomerFreeze } from './074_customer_freeze';
import { migration076CustomerSearch } from './076_customer_search';
import { migration080LoanInterest } from './080_loan_interest';
import { migration081WithdrawalsPending } from './081_withdrawals_pending';
import { migration082FundNav } from './082_fund_nav';
import { migration090Push } from './090_push';
import { migration091RechargeReference } from './091_recharge_reference';
import { migration092TradingNames } from './092_trading_names';
import { migration093WalletNames } from './093_wallet_names';
import { migration094PasswordResetDue } from './094_password_reset_due';
import { migration095NotificationsRefAlerts } from './095_notifications_ref_alerts';

/**
 * Numbered migrations, run in order at start. Never edit a landed one: add the next number.
 * Numbering: 001–049 accounts, ledger and business tables; 050–059 market data; 060–069
 * operations (retention, audits); 070–079 the back office; 080–089 products; 090–091 notifications
 * (push); 092– renames of SPEC's wire names to our own.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_init': migration001(dialect),
    '030_wallet': migration030(),
    '010_trading': migration010(),
    '035_hot_reads': migration035(),
    '040_order_reason': migration040(),
    '041_money_safety': migration041(),
    '046_watchlists_alerts': migration046(dialect),
    '047_product_facts': migration047(),
    '048_order_charges': migration048(),
    '048_order_types': migration048OrderTypes(),
    '048_withdraw_hold': migration048WithdrawHold(),
    '049_portfolio': migration049(),
    '049_trading_gtt': migration049TradingGtt(),
    '049_trading_oco': migration049TradingOco(),
    '049_open_buys': migration049OpenBuys(),
    '049_trading_amo': migration049TradingAmo(),
    '049_factors': migration049Factors(dialect),
    '049_step_up': migration049StepUp(dialect),
    '060_inbox_window': migration060InboxWindow(),
    '061_ledger_audits': migration061LedgerAudits(dialect),
    '070_backoffice': migration070Backoffice(dialect),
    '071_audit_seal': migration071AuditSeal(),
    '072_staff_people': migration072StaffPeople(dialect),
    '073_kyc_id_index': migration073KycIdIndex(),
    '074_customer_freeze': migration074CustomerFreeze(),
    '076_customer_search': migration076CustomerSearch(),
    '080_loan_interest': migration080LoanInterest(dialect),
    '081_withdrawals_pending': migration081WithdrawalsPending(),
    '082_fund_nav': migration082FundNav(),
    '090_push': migration090Push(dialect),
    '091_recharge_reference': migration091RechargeReference(),
    '092_trading_names': migration092TradingNames(),
    '093_wallet_names': migration093WalletNames(),
    '094_password_reset_due': migration094PasswordResetDue(),
    '095_notifications_ref_alerts': migration095NotificationsRefAlerts(),
  };
}
