import type { Kysely } from 'kysely';
import type { Ipo } from '#shared/contract/invest';
import { priceToTicks, ticksToPrice, tradeValueMinor } from '#shared/money';
import { IPO_QTY_STEP } from '#shared/rules';
import { IPO_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import { notify } from '../notify/notify';
import { rateTicks } from './fx';
import { insertOrder, orderNo } from './order-rows';
import { currencyOf, regionOf, withinTolerance } from './placement';
import { freezeApplication, refundApplication } from './postings';

/**
 * IPO subscriptions. An application freezes its whole amount (ledger `ipoFreeze`) at the issue
 * price; the operator then allots (shares held at the issue price, status 2, the unallotted part
 * refunded) or refunds it (`ipoRefund`, status 3). Allotted shares are sold by order number.
 */

export const IPO_OPEN = 'Forthcoming';
const IPO_LISTED = 'Listed';

/**
 * An IPO's status as users see it: Listed as soon as the market lists (quotes) the symbol, since
 * the market is what makes allotted shares sellable; otherwise the catalogue's status.
 */
function ipoStatus(deps: Deps, ipo: { symbol: string; status: string }): string {
  return isListed(deps, ipo.symbol) ? IPO_LISTED : ipo.status;
}

/** The bidding window by its dates: applications are taken from its start until its end. */
function ipoWindow(
  ipo: { issue_start_date: number; issue_end_date: number },
  at: number,
): 'open' | 'upcoming' | 'closed' {
  if (at < ipo.issue_start_date) return 'upcoming';
  return at < ipo.issue_end_date ? 'open' : 'closed';
}

export function isListed(deps: Deps, symbol: string): boolean {
  return deps.market.instrument(symbol) !== undefined;
}

/** The IPO catalogue (`ipoList`), newest issue first, each with its status and window now. */
export async function ipoList(deps: Deps, db: Kysely<DB>): Promise<{ rows: Ipo[] }> {
  const rows = await db
    .selectFrom('ipos')
    .selectAll()
    .orderBy('issue_start_date', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    rows: rows.map(
      (r): Ipo => ({
        id: r.id,
        series: r.series,
        symbol: r.symbol,
        company_name: r.company_name,
        status: ipoStatus(deps, r) as Ipo['status'],
        issue_price: ticksToPrice(r.issue_price),
        min: r.min,
        max: r.max,
        issue_start_date: r.issue_start_date,
        issue_end_date: r.issue_end_date,
        listing_date: r.listing_date,
        region: deps.market.instrument(r.symbol)?.region ?? regionOf(r.series),
        window: ipoWindow(r, deps.clock.now()),
        band_low: r.band_low === null ? null : ticksToPrice(Number(r.band_low)),
        lot: IPO_QTY_STEP,
        allotment_date: r.allotment_date === null ? null : Number(r.allotment_date),
      }),
    ),
  };
}

export interface IpoApplication {
  id: number;
  tag: string;
  count: number;
  price: number;
}

export async function applyIpo(deps: Deps, db: Kysely<DB>, userId: number, input: IpoApplication) {
  const ipo = await db.selectFrom('ipos').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!ipo) throw notFound();
  if (ipo.symbol !== input.tag) throw invalid();
  if (ipoStatus(deps, ipo) !== IPO_OPEN || ipoWindow(ipo, deps.clock.now()) !== 'open')
    throw invalid('errors.ipoNotOpen');
  if (input.count < ipo.min || input.count > ipo.max || input.count % IPO_QTY_STEP !== 0) {
    throw invalid('errors.ipoQuantity');
  }
  // The issue price is fixed, but an operator may have changed it since the user looked.
  if (!withinTolerance('buy', ipo.issue_price, priceToTicks(input.price)))
    throw invalid('errors.priceChanged');
  // The maximum is per user, not per application: what is applied for and allotted counts.
  await lockUser(db, deps.database.dialect, userId);
  const held = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.sum<number | string>('qty').as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'ipo')
    .where('side', '=', 'buy')
    .where('ref_id', '=', ipo.id)
    .where('status', 'in', [IPO_STATUS.pending, IPO_STATUS.allotted])
    .executeTakeFirst();
  const already = Number(held?.n ?? 0);
  if (already + input.count > ipo.max) {
    throw new ApiError('errors.ipoUserMax', 400, { max: ipo.max, left: Math.max(0, ipo.max - already) });
  }
  const now = deps.clock.now();
  const rate = await rateTicks(deps, db, currencyOf(deps, ipo.symbol, ipo.series));
  const amount = tradeValueMinor(ipo.issue_price, input.count, rate);
  if (amount <= 0) throw invalid();
  const order = await insertOrder(db, {
    no: orderNo('ipo', now),
    user_id: userId,
    kind: 'ipo',
    symbol: ipo.symbol,
    market: ipo.series,
    name: ipo.company_name,
    side: 'buy',
    status: IPO_STATUS.pending,
    qty: input.count,
    limit_price: null,
    price: ipo.issue_price,
    sell_price: null,
    fee: 0,
    price_all: amount,
    profit: null,
    ref_id: ipo.id,
    created_at: now,
    updated_at: now,
    expires_at: null,
    rate,
    region: deps.market.instrument(ipo.symbol)?.region ?? regionOf(ipo.series),
  });
  await freezeApplication(db, { userId, orderId: order.id, at: now }, amount);
  return order;
}

export interface AllotmentResult {
  ipo: number;
  applications: number;
  allotted: number;
  refunded: number;
  /** Minor units given back (whole refunds and unallotted parts). */
  refundedMinor: number;
}

/** What one application gets at `ratioBps`: whole lots, their value at its rate, the rest refunded. */
export function allotmentOf(
  app: { qty: number; price: number; rate: number; price_all: number },
  ratioBps: number,
): { shares: number; value: number; refund: number } {
  const shares = Math.floor(((app.qty / IPO_QTY_STEP) * ratioBps) / 10_000) * IPO_QTY_STEP;
  const value = shares > 0 ? tradeValueMinor(app.price, shares, app.rate) : 0;
  return { shares, value, refund: app.price_all - value };
}

/** An IPO's pending applications, oldest first (what an allotment runs on and previews). */
export function pendingApplications(db: Kysely<DB>, ipoId: number) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('kind', '=', 'ipo')
    .where('ref_id', '=', ipoId)
    .where('status', '=', IPO_STATUS.pending)
    .where('side', '=', 'buy')
    .orderBy('id')
    .execute();
}

/**
 * Allots every pending application of an IPO: each gets `ratioBps` / 10,000 of its shares, rounded
 * down to whole lots of IPO_QTY_STEP; what is not allotted is refunded. ratioBps 0 refunds all.
 * Application closes: a Forthcoming IPO becomes Closed. One transaction for the whole IPO
 * (`allotIpoIn`: the caller's, e.g. the back office's audited run).
 */
export async function allotIpo(deps: Deps, ipoId: number, ratioBps: number): Promise<AllotmentResult> {
  return withTx(deps.database, (trx) => allotIpoIn(deps, trx, ipoId, ratioBps));
}

export async function allotIpoIn(
  deps: Deps,
  trx: Kysely<DB>,
  ipoId: number,
  ratioBps: number,
): Promise<AllotmentResult> {
  if (!Number.isInteger(ratioBps) || ratioBps < 0 || ratioBps > 10_000) throw new Error('ratio must be 0..1');
  const ipo = await trx
    .selectFrom('ipos')
    .select(['id', 'status'])
    .where('id', '=', ipoId)
    .executeTakeFirst();
  if (!ipo) throw new Error(`no IPO ${ipoId}`);
  const now = deps.clock.now();
  if (ipo.status === IPO_OPEN) {
    await trx.updateTable('ipos').set({ status: 'Closed' }).where('id', '=', ipoId).execute();
  }
  const pending = await pendingApplications(trx, ipoId);
  const result: AllotmentResult = {
    ipo: ipoId,
    applications: pending.length,
    allotted: 0,
    refunded: 0,
    refundedMinor: 0,
  };
  for (const app of pending) {
    const { shares, value, refund } = allotmentOf(app, ratioBps);
    const updated = await trx
      .updateTable('orders')
      .set(
        shares > 0
          ? { status: IPO_STATUS.allotted, qty: shares, price_all: value, updated_at: now }
          : { status: IPO_STATUS.refunded, updated_at: now },
      )
      .where('id', '=', app.id)
      .where('status', '=', IPO_STATUS.pending)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) continue;
    if (shares > 0) result.allotted++;
    else result.refunded++;
    await refundApplication(trx, { userId: app.user_id, orderId: app.id, at: now }, refund);
    if (refund > 0) result.refundedMinor += refund;
    // The applicant hears of it in the same transaction (notify/notify.ts).
    await notify(trx, {
      userId: app.user_id,
      kind: 'ipo',
      refId: app.id,
      symbol: app.symbol,
      params: {
        event: shares > 0 ? 'allotted' : 'notAllotted',
        name: app.name ?? app.symbol,
        count: shares,
        refund,
      },
      at: now,
    });
  }
  return result;
}

/** Sets an IPO's status (e.g. Closed → Listed once its shares trade). */
export async function setIpoStatus(deps: Deps, ipoId: number, status: string): Promise<void> {
  if (!['Forthcoming', 'Closed', 'Listed'].includes(status))
    throw new Error('status: Forthcoming|Closed|Listed');
  const res = await deps.database.db
    .updateTable('ipos')
    .set({ status })
    .where('id', '=', ipoId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new Error(`no IPO ${ipoId}`);
}
