import type { CustomerView } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { IPO_STATUS, KYC_STATUS } from '#shared/status';
import { standingOf } from '../account/controls';
import { nameOf } from '../account/customer-names';
import { isWelcome } from '../content/chat';
import { plainText } from '../content/sanitize';
import { hotReads } from '../db/hot';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { invalid, notFound } from '../lib/errors';
import { maskTail } from '../lib/mask';
import { bookOf, heroAnswer } from '../portfolio/book';
import { heldOf } from '../portfolio/held';
import { creditOf } from '../wallet/credit';
import { approvalView, payoutRows } from '../wallet/payouts';
import { auditRows } from './audit-view';

/**
 * The customer view: one customer's identity and its history, cards with their
 * change times, balance and ledger (each posting with the audit entry of the staff action that made
 * it, if any), orders, holdings, loans, IPO applications, withdrawals and pending approvals, the
 * chat and the staff's own notes. Reading it is open to every role (support reads, never changes);
 * card and identity numbers stay masked here — the full identity number is the KYC case view's.
 */

const LIMIT = 50;

export async function customerView(deps: Deps, userId: number): Promise<CustomerView> {
  const { db } = deps.database;
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound();
  const [
    kyc,
    cards,
    ledger,
    orders,
    holdings,
    loans,
    ipos,
    chat,
    notes,
    credit,
    identityHistory,
    withdrawals,
  ] = await Promise.all([
    db.selectFrom('kyc').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('bank_cards').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db
      .selectFrom('ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('orders')
      .select(['id', 'no', 'kind', 'symbol', 'side', 'status', 'qty', 'price_all', 'created_at'])
      .where('user_id', '=', userId)
      .where('kind', '!=', 'ipo')
      .orderBy('id', 'desc')
      .limit(LIMIT)
      .execute(),
    hotReads(deps.database).userInfo(userId),
    db
      .selectFrom('loans')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('orders')
      .select(['id', 'symbol', 'qty', 'price_all', 'status', 'created_at'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'ipo')
      .where('side', '=', 'buy')
      .orderBy('id', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('messages')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('staff_notes')
      .innerJoin('staff', 'staff.id', 'staff_notes.staff_id')
      .select(['staff_notes.id', 'staff_notes.body', 'staff.name', 'staff_notes.created_at'])
      .where('staff_notes.user_id', '=', userId)
      .orderBy('staff_notes.id', 'desc')
      .execute(),
    creditOf(db, userId),
    auditRows(db, { customer: userId, actionPrefix: 'kyc:' }),
    payoutRows(deps, { userId }),
  ]);
  const naming = await nameOf(db, userId);
  // The hero and Holdings exactly as the customer's app values them (one snapshot, server quotes).
  if (!holdings) throw notFound();
  const held = heldOf(deps, holdings);
  const book = bookOf(holdings.user, holdings.orders, held);
  const waiting = await db
    .selectFrom('payout_approvals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'awaiting')
    .execute();
  const pending = waiting.map((a) => {
    const row = withdrawals.find((w) => w.id === a.withdrawal_id);
    return approvalView(a, row?.approval?.intact ?? false);
  });
  return {
    customer: {
      id: user.id,
      phone: user.phone,
      no: user.no,
      name: naming.name,
      nameFrom: naming.nameFrom,
      kycStatus: kyc?.status ?? KYC_STATUS.none,
      balance: fromMinor(user.balance),
      createdAt: user.created_at,
      creditScore: user.credit_score,
      loan: fromMinor(credit.dueMinor),
    },
    identity: kyc
      ? {
          status: kyc.status,
          realName: kyc.real_name,
          idType: kyc.id_type,
          idNumber: maskTail(kyc.id_number),
          reason: kyc.reason,
          note: kyc.note,
          updatedAt: kyc.updated_at,
        }
      : null,
    identityHistory,
    cards: cards.map((c) => ({
      id: c.id,
      bank: c.bank,
      card: maskTail(c.bank_card),
      holder: c.bank_user,
      ifsc: c.ifsc,
      status: c.status,
      addedAt: c.created_at,
      changedAt: c.updated_at,
    })),
    ledger: ledger.map((l) => ({
      id: l.id,
      at: l.created_at,
      amount: fromMinor(l.amount),
      balance: fromMinor(l.balance_after),
      reason: l.reason,
      auditSeq: l.audit_seq ?? null,
    })),
    orders: orders.map((o) => ({
      id: o.id,
      no: o.no,
      mold: o.kind,
      symbol: o.symbol,
      state: o.side,
      status: o.status,
      count: o.qty,
      total: fromMinor(o.price_all),
      at: o.created_at,
    })),
    assets: heroAnswer(book),
    holdings: held.map((h) => ({
      symbol: h.symbol,
      name: h.name,
      type: h.type,
      qty: h.qty,
      invested: fromMinor(h.invested),
      value: fromMinor(h.value),
      lockedUntil: h.lot?.unlock_at ?? null,
    })),
    loans: loans.map((l) => ({ id: l.id, amount: fromMinor(l.amount), state: l.status, at: l.created_at })),
    ipoApplications: ipos.map((o) => ({
      id: o.id,
      symbol: o.symbol,
      count: o.qty,
      amount: fromMinor(o.price_all),
      status: o.status === IPO_STATUS.pending ? IPO_STATUS.pending : o.status,
      at: o.created_at,
    })),
    withdrawals,
    chat: chat.reverse().map((m) => ({
      id: m.id,
      sender: m.sender,
      body: m.body,
      at: m.created_at,
      readAt: m.read_at,
      automatic: isWelcome(m),
    })),
    notes: notes.map((n) => ({ id: n.id, body: n.body, by: n.name, at: n.created_at })),
    pending,
    standing: await standingOf(deps, userId),
  };
}

/** A staff note on a customer (audited; customers never see notes). */
export async function addNote(deps: Deps, actor: Actor, userId: number, text: string): Promise<void> {
  const body = text.trim().slice(0, 2000);
  if (!body || !plainText(body)) throw invalid('ops.errors.noteEmpty');
  if (actor.staffId === null) throw invalid();
  const staffId = actor.staffId;
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    const row = await trx
      .insertInto('staff_notes')
      .values({ user_id: userId, staff_id: staffId, body, created_at: deps.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      result: undefined,
      entry: {
        action: 'customer:note',
        targetType: 'customer',
        targetId: userId,
        customerId: userId,
        after: { note: row.id, body },
      },
    };
  });
}
