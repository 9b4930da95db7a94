import type { Kysely, Selectable } from 'kysely';
import type { AlertKind, AlertRow, NotificationRow } from '#shared/contract/watchlist';
import { priceToTicks, ticksToPrice } from '#shared/money';
import { ALERT_FIRES_PER_DAY, ALERT_MOVE_MAX, ALERT_MOVE_MIN, ALERTS_MAX } from '#shared/rules';
import { hotReads } from '../db/hot';
import { withTx } from '../db/index';
import type { AlertsTable, DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import type { Quote } from '../market/provider';
import { notify } from '../notify/notify';

/**
 * Price alerts: stored per user, evaluated by the server at every market tick
 * (`evaluateAlerts`, run by the `alerts:tick` job), so they fire while the app is closed. An alert
 * fires once: the guarded update `status 0 → 1` succeeds for one evaluator only, and the inbox item
 * is written in the same transaction. Levels are stored exactly: prices in ticks, moves in basis
 * points.
 *
 * Bounded: a user keeps at most ALERTS_MAX alerts, triggered ones included; creating or
 * re-arming one is refused once the user's alerts triggered ALERT_FIRES_PER_DAY times in 24 hours;
 * the inbox keeps a user's newest NOTIFICATIONS_KEPT items, none older than NOTIFICATIONS_KEEP_MS.
 */

const ACTIVE = 0;
const FIRED = 1;
const DAY_MS = 24 * 3600 * 1000;

/** Inbox items are kept NOTIFICATIONS_KEPT per user (notify/notify.ts), and for this long at most. */
export { NOTIFICATIONS_KEPT } from '../notify/notify';
export const NOTIFICATIONS_KEEP_MS = 30 * DAY_MS;

type Db = Kysely<DB>;

/** What the alert watches, in the stored units, checked against a quote. */
function crossed(kind: AlertKind, value: number, quote: Pick<Quote, 'price' | 'prevClose'>): boolean {
  const price = priceToTicks(quote.price);
  if (kind === 'above') return price >= value;
  if (kind === 'below') return price <= value;
  const prev = priceToTicks(quote.prevClose);
  // |price − prev| / prev ≥ value bps, in integers.
  return prev > 0 && Math.abs(price - prev) * 10_000 >= value * prev;
}

/** The stored value of an alert typed by the user, or a refusal naming why. */
function storedValue(
  deps: Deps,
  symbol: string,
  kind: AlertKind,
  value: number,
): { value: number; ref: number } {
  const instrument = deps.market.instrument(symbol);
  if (!instrument) throw notFound();
  const quote = deps.market.quote(instrument.symbol);
  if (!quote) throw new ApiError('errors.quoteUnavailable', 503);
  let stored: number;
  if (kind === 'move') {
    if (value < ALERT_MOVE_MIN || value > ALERT_MOVE_MAX)
      throw new ApiError('errors.alertMove', 400, { min: ALERT_MOVE_MIN, max: ALERT_MOVE_MAX });
    stored = Math.round(value * 100);
  } else {
    // A level is a price of the instrument: at most its decimals.
    const f = 10 ** instrument.decimals;
    if (Math.abs(Math.round(value * f) - value * f) > 1e-6) throw invalid('errors.alertPrice');
    stored = priceToTicks(value);
  }
  // A level the price is already past would fire at once: the user means the next crossing.
  if (crossed(kind, stored, quote))
    throw invalid(kind === 'move' ? 'errors.alertMovePast' : 'errors.alertPast');
  return { value: stored, ref: priceToTicks(quote.price) };
}

function toAlertRow(deps: Deps, a: Selectable<AlertsTable>): AlertRow {
  const ins = deps.market.instrument(a.symbol);
  return {
    id: a.id,
    symbol: a.symbol,
    name: ins?.name ?? a.symbol,
    region: ins?.region ?? 'IN',
    decimals: ins?.decimals ?? 2,
    kind: a.kind,
    value: a.kind === 'move' ? Number(a.value) / 100 : ticksToPrice(Number(a.value)),
    ref_price: ticksToPrice(Number(a.ref_price)),
    status: a.status === FIRED ? 'fired' : 'active',
    created_at: Number(a.created_at),
    fired_at: a.fired_at === null ? null : Number(a.fired_at),
    fired_price: a.fired_price === null ? null : ticksToPrice(Number(a.fired_price)),
  };
}

async function activeCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', ACTIVE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function lockUser(deps: Deps, trx: Db, userId: number): Promise<void> {
  if (deps.database.dialect !== 'postgres') return;
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/**
 * Refuses arming one more alert (a new one, or a triggered one again) past the caps, inside the
 * transaction that holds the owner's lock: `adds` — whether the alert is a new row.
 */
async function assertMayArm(deps: Deps, trx: Db, userId: number, adds: boolean): Promise<void> {
  await lockUser(deps, trx, userId);
  if (adds) {
    const kept = await trx
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(kept.n) >= ALERTS_MAX) throw new ApiError('errors.alertLimit', 409, { max: ALERTS_MAX });
  }
  const fired = await trx
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'alert')
    .where('created_at', '>', deps.clock.now() - DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(fired.n) >= ALERT_FIRES_PER_DAY)
    throw new ApiError('errors.alertDailyLimit', 429, { max: ALERT_FIRES_PER_DAY });
}

export async function listAlerts(deps: Deps, userId: number, symbol?: string) {
  const canonical = symbol ? (deps.market.instrument(symbol)?.symbol ?? symbol) : undefined;
  const rows = await deps.database.db
    .selectFrom('alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(canonical !== undefined, (q) => q.where('symbol', '=', canonical!))
    .orderBy('status')
    .orderBy('id', 'desc')
    .execute();
  return {
    rows: rows.map((r) => toAlertRow(deps, r)),
    active: await activeCount(deps.database.db, userId),
  };
}

export async function createAlert(
  deps: Deps,
  userId: number,
  input: { symbol: string; kind: AlertKind; value: number },
): Promise<AlertRow> {
  const symbol = deps.market.instrument(input.symbol)?.symbol;
  if (!symbol) throw notFound();
  const { value, ref } = storedValue(deps, symbol, input.kind, input.value);
  const row = await withTx(deps.database, async (trx) => {
    await assertMayArm(deps, trx, userId, true);
    const now = deps.clock.now();
    return trx
      .insertInto('alerts')
      .values({
        user_id: userId,
        symbol,
        kind: input.kind,
        value,
        ref_price: ref,
        status: ACTIVE,
        created_at: now,
        updated_at: now,
        fired_at: null,
        fired_price: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toAlertRow(deps, row);
}

async function ownAlert(db: Db, userId: number, id: number) {
  const row = await db
    .selectFrom('alerts')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateAlert(
  deps: Deps,
  userId: number,
  input: { id: number; kind: AlertKind; value: number },
): Promise<AlertRow> {
  const current = await ownAlert(deps.database.db, userId, input.id);
  const { value, ref } = storedValue(deps, current.symbol, input.kind, input.value);
  const row = await withTx(deps.database, async (trx) => {
    // Re-arming a triggered alert counts towards the day's triggers like a new one.
    if (current.status !== ACTIVE) await assertMayArm(deps, trx, userId, false);
    return trx
      .updateTable('alerts')
      .set({
        kind: input.kind,
        value,
        ref_price: ref,
        status: ACTIVE,
        updated_at: deps.clock.now(),
        fired_at: null,
        fired_price: null,
      })
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  });
  if (!row) throw notFound();
  return toAlertRow(deps, row);
}

export async function deleteAlert(deps: Deps, userId: number, id: number): Promise<void> {
  await ownAlert(deps.database.db, userId, id);
  await deps.database.db.deleteFrom('alerts').where('id', '=', id).where('user_id', '=', userId).execute();
}

/**
 * One pass over the active alerts against the current quotes: each crossed alert fires in its own
 * transaction (guarded update + its notice: inbox item and push, notify/notify.ts). Safe to run concurrently: a second evaluator's update
 * finds the alert already fired and writes nothing. Returns how many fired in this pass.
 */
export async function evaluateAlerts(deps: Deps): Promise<number> {
  const active = await deps.database.db
    .selectFrom('alerts')
    .select(['id', 'user_id', 'symbol', 'kind', 'value'])
    .where('status', '=', ACTIVE)
    .orderBy('symbol')
    .orderBy('id')
    .execute();
  let fired = 0;
  const quotes = new Map<string, Quote | undefined>();
  for (const a of active) {
    if (!quotes.has(a.symbol)) quotes.set(a.symbol, deps.market.quote(a.symbol));
    const quote = quotes.get(a.symbol);
    if (!quote || !crossed(a.kind, Number(a.value), quote)) continue;
    const price = priceToTicks(quote.price);
    const now = deps.clock.now();
    const done = await withTx(deps.database, async (trx) => {
      const res = await trx
        .updateTable('alerts')
        .set({ status: FIRED, fired_at: now, fired_price: price, updated_at: now })
        .where('id', '=', a.id)
        .where('status', '=', ACTIVE)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      const ins = deps.market.instrument(a.symbol);
      const params = {
        name: ins?.name ?? a.symbol,
        kind: a.kind,
        value: a.kind === 'move' ? Number(a.value) / 100 : ticksToPrice(Number(a.value)),
        price: quote.price,
        change: Math.round(quote.changePercent * 100) / 100,
        decimals: ins?.decimals ?? 2,
        region: ins?.region ?? 'IN',
      };
      await notify(trx, { userId: a.user_id, kind: 'alert', refId: a.id, symbol: a.symbol, params, at: now });
      return true;
    });
    if (done) fired++;
  }
  return fired;
}

/** Drops inbox items older than NOTIFICATIONS_KEEP_MS (the `inbox:purge` job); returns how many. */
export async function purgeInbox(deps: Deps): Promise<number> {
  const res = await deps.database.db
    .deleteFrom('notifications')
    .where('created_at', '<', deps.clock.now() - NOTIFICATIONS_KEEP_MS)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function notifications(deps: Deps, userId: number, page: number, limit: number) {
  const { db } = deps.database;
  const [rows, count, unread] = await Promise.all([
    db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    unreadCount(deps, userId),
  ]);
  return {
    rows: rows.map(
      (r): NotificationRow => ({
        id: r.id,
        kind: r.kind,
        symbol: r.symbol,
        params: JSON.parse(r.params) as NotificationRow['params'],
        created_at: Number(r.created_at),
        read: r.read_at !== null,
      }),
    ),
    count: Number(count.n),
    unread: unread.unread_count,
  };
}

/** Polled every 10 s beside the messages' count: a prepared read of db/hot.ts. */
export function unreadCount(deps: Deps, userId: number) {
  return hotReads(deps.database).inboxUnread(userId);
}

export async function markRead(deps: Deps, userId: number, id?: number): Promise<void> {
  const { db } = deps.database;
  if (id !== undefined) {
    const row = await db
      .selectFrom('notifications')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound();
  }
  await db
    .updateTable('notifications')
    .set({ read_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .execute();
}
