import { HOLD_LABEL } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { LEDGER_REASONS, type LedgerReason, WITHDRAW_STATUS } from '#shared/status';
import wallet from '../../locales/en/wallet.json';
import type { Deps } from '../deps';
import { csvLine } from '../lib/audit-log';
import { notFound } from '../lib/errors';
import { payouts } from '../wallet/payouts';
import { queues } from './queues';

/**
 * The desk's CSV exports besides the audit log's (audit-view.ts): a customer's statement, the
 * payouts waiting and the work queue. Every line goes through the audit export's writer
 * (`csvLine`: every cell quoted, a text a spreadsheet would run as a formula defused), so the rule
 * is written once. Amounts are plain decimals (1234.50) a spreadsheet adds up, and a statement's
 * debit and credit are columns of their own: a signed "-1234.50" would be defused into text.
 */

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/**
 * A ledger reason in words, as the customer's app writes it on their own statement (English), the
 * code itself for one the app does not know.
 */
const REASON_WORDS: Record<LedgerReason, string> = wallet.bill.reason;
export const reasonWords = (reason: string) =>
  (LEDGER_REASONS as readonly string[]).includes(reason) ? REASON_WORDS[reason as LedgerReason] : reason;

/** A withdrawal's status as the desk says it (the code, `n`/`y`/`b`, means nothing in a sheet). */
const PAYOUT_WORDS: Record<string, string> = {
  [WITHDRAW_STATUS.inProgress]: 'waiting',
  [WITHDRAW_STATUS.paid]: 'paid',
  [WITHDRAW_STATUS.failed]: 'failed, refunded',
};

function csv(header: string[], rows: unknown[][]): string {
  return csvLine(header) + rows.map(csvLine).join('');
}

/** One customer's postings, oldest first, in an optional [from, to) window. */
export async function statementCsv(
  deps: Deps,
  f: { userId: number; from?: number; to?: number },
): Promise<string> {
  const { db } = deps.database;
  const user = await db.selectFrom('users').select('id').where('id', '=', f.userId).executeTakeFirst();
  if (!user) throw notFound();
  let q = db
    .selectFrom('ledger')
    .leftJoin('audit_log', 'audit_log.seq', 'ledger.audit_seq')
    .select([
      'ledger.id',
      'ledger.created_at',
      'ledger.reason',
      'ledger.amount',
      'ledger.balance_after',
      'ledger.ref_type',
      'ledger.ref_id',
      'audit_log.action',
      'audit_log.actor_name',
    ])
    .where('ledger.user_id', '=', f.userId);
  if (f.from !== undefined) q = q.where('ledger.created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('ledger.created_at', '<', f.to);
  const rows = await q.orderBy('ledger.id').limit(100_000).execute();
  return csv(
    ['posting', 'at', 'reason', 'reason_code', 'debit', 'credit', 'balance', 'reference', 'staff_action'],
    rows.map((r) => [
      r.id,
      iso(r.created_at),
      reasonWords(r.reason),
      r.reason,
      r.amount < 0 ? fromMinor(-r.amount) : '',
      r.amount >= 0 ? fromMinor(r.amount) : '',
      fromMinor(r.balance_after),
      r.ref_type ? `${r.ref_type} ${r.ref_id ?? ''}`.trim() : '',
      r.action ? `${r.action} by ${r.actor_name}` : '',
    ]),
  );
}

/** The payouts as the Payouts page lists them (held first, oldest first). */
export async function payoutsCsv(deps: Deps): Promise<string> {
  const { rows } = await payouts(deps);
  return csv(
    [
      'withdrawal',
      'asked_at',
      'customer_id',
      'customer',
      'phone',
      'amount',
      'status',
      'why_it_waits',
      'bank',
      'card',
      'holder',
      'ifsc',
      'day_total',
      'two_people',
      'approval',
    ],
    rows.map((p) => [
      p.id,
      iso(p.askedAt),
      p.userId,
      p.customer.name ?? '',
      p.phone,
      p.amount,
      PAYOUT_WORDS[p.status] ?? p.status,
      p.hold ? (HOLD_LABEL[p.hold] ?? p.hold) : '',
      p.card.bank,
      p.card.card,
      p.card.holder,
      p.card.ifsc,
      p.dayTotal,
      p.needsApproval ? 'yes' : 'no',
      p.approval ? `${p.approval.status}, requested by ${p.approval.makerName}` : '',
    ]),
  );
}

/** Every waiting item, most overdue first, as the Queues page orders them. */
export async function queuesCsv(deps: Deps): Promise<string> {
  const { now, items } = await queues(deps);
  return csv(
    [
      'type',
      'item',
      'title',
      'detail',
      'amount',
      'customer_id',
      'customer',
      'phone',
      'waiting_since',
      'waiting_minutes',
      'target_minutes',
      'claimed_by',
    ],
    items.map((i) => [
      i.type,
      i.id,
      i.title,
      i.detail,
      i.amount ?? '',
      i.customerId ?? '',
      i.customerName ?? '',
      i.customerPhone ?? '',
      iso(i.since),
      Math.floor((now - i.since) / 60_000),
      Math.round(i.targetMs / 60_000),
      i.claimedBy?.name ?? '',
    ]),
  );
}
