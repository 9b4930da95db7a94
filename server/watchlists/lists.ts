import type { Kysely } from 'kysely';
import type { WatchlistItem } from '#shared/contract/trading';
import type { Watchlist } from '#shared/contract/watchlist';
import { WATCHLIST_MAX_ITEMS, WATCHLIST_MAX_LISTS } from '#shared/rules';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { conflict, invalid, notFound } from '../lib/errors';

/**
 * Named watchlists. Every user has one default list (SPEC's favourites, made on first
 * use); every other list is named. Each row a call names is looked up with its owner, so another
 * user's list id answers not-found.
 */

type Db = Kysely<DB>;

/** The market's spelling of a listed symbol (lookups may ignore case); an unknown one is not-found. */
export function listedSymbol(deps: Deps, symbol: string): string {
  const instrument = deps.market.instrument(symbol);
  if (!instrument) throw notFound();
  return instrument.symbol;
}

/** The market's spelling of a symbol; an unknown one is kept as sent. */
export function canonicalSymbol(deps: Deps, symbol: string): string {
  return deps.market.instrument(symbol)?.symbol ?? symbol;
}

/** A symbol as sent and as the market spells it (so a delisted row can still go). */
export function spellings(deps: Deps, symbol: string): string[] {
  return [...new Set([symbol, canonicalSymbol(deps, symbol)])];
}

/** The caller's default list id, made on first use (the unique `default_of` settles a race). */
export async function defaultListId(deps: Deps, userId: number): Promise<number> {
  const { db } = deps.database;
  const found = await db
    .selectFrom('watchlists')
    .select('id')
    .where('default_of', '=', userId)
    .executeTakeFirst();
  if (found) return found.id;
  await db
    .insertInto('watchlists')
    .values({ user_id: userId, name: null, position: 0, default_of: userId, created_at: deps.clock.now() })
    .onConflict((oc) => oc.column('default_of').doNothing())
    .execute();
  const made = await db
    .selectFrom('watchlists')
    .select('id')
    .where('default_of', '=', userId)
    .executeTakeFirstOrThrow();
  return made.id;
}

/** A list of the caller's, or not-found. */
async function ownList(db: Db, userId: number, id: number) {
  const list = await db
    .selectFrom('watchlists')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!list) throw notFound();
  return list;
}

export async function lists(deps: Deps, userId: number): Promise<Watchlist[]> {
  await defaultListId(deps, userId);
  const rows = await deps.database.db
    .selectFrom('watchlists')
    .leftJoin('watchlist_items', 'watchlist_items.list_id', 'watchlists.id')
    .select((eb) => [
      'watchlists.id',
      'watchlists.name',
      'watchlists.position',
      'watchlists.default_of',
      eb.fn.count<number | string>('watchlist_items.symbol').as('n'),
    ])
    .where('watchlists.user_id', '=', userId)
    .groupBy(['watchlists.id', 'watchlists.name', 'watchlists.position', 'watchlists.default_of'])
    .orderBy('watchlists.position')
    .orderBy('watchlists.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    is_default: r.default_of !== null,
    count: Number(r.n),
    position: r.position,
  }));
}

async function one(deps: Deps, userId: number, id: number): Promise<Watchlist> {
  const all = await lists(deps, userId);
  const found = all.find((l) => l.id === id);
  if (!found) throw notFound();
  return found;
}

/** Names are trimmed, not blank and unique per user (case-insensitive). */
function cleanName(name: string): string {
  const trimmed = name.replace(/\s+/g, ' ').trim();
  if (!trimmed) throw invalid('errors.watchlistName');
  return trimmed;
}

async function assertNameFree(db: Db, userId: number, name: string, except?: number): Promise<void> {
  const rows = await db
    .selectFrom('watchlists')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .execute();
  if (rows.some((r) => r.id !== except && r.name?.toLowerCase() === name.toLowerCase()))
    throw conflict('errors.watchlistNameTaken');
}

export async function createList(deps: Deps, userId: number, rawName: string): Promise<Watchlist> {
  const name = cleanName(rawName);
  await defaultListId(deps, userId);
  const id = await withTx(deps.database, async (trx) => {
    // The owner's row is locked first (PostgreSQL), so two creates cannot both pass the limit.
    await lockUser(deps, trx, userId);
    const existing = await trx
      .selectFrom('watchlists')
      .select(['position'])
      .where('user_id', '=', userId)
      .execute();
    if (existing.length >= WATCHLIST_MAX_LISTS) throw conflict('errors.watchlistLimit');
    await assertNameFree(trx, userId, name);
    const position = Math.max(0, ...existing.map((r) => r.position)) + 1;
    const row = await trx
      .insertInto('watchlists')
      .values({ user_id: userId, name, position, default_of: null, created_at: deps.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return one(deps, userId, id);
}

export async function renameList(
  deps: Deps,
  userId: number,
  id: number,
  rawName: string,
): Promise<Watchlist> {
  const name = cleanName(rawName);
  const { db } = deps.database;
  const list = await ownList(db, userId, id);
  if (list.default_of !== null) throw invalid('errors.watchlistDefault');
  await assertNameFree(db, userId, name, id);
  await db
    .updateTable('watchlists')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
  return one(deps, userId, id);
}

export async function reorderLists(deps: Deps, userId: number, ids: number[]): Promise<Watchlist[]> {
  const current = await lists(deps, userId);
  const mine = new Set(current.map((l) => l.id));
  // Naming another user's list is not-found; leaving one of one's own out is bad input.
  if (ids.some((id) => !mine.has(id))) throw notFound();
  if (ids.length !== current.length) throw invalid('errors.watchlistOrder');
  await withTx(deps.database, async (trx) => {
    for (const [position, id] of ids.entries()) {
      await trx
        .updateTable('watchlists')
        .set({ position })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .execute();
    }
  });
  return lists(deps, userId);
}

export async function deleteList(deps: Deps, userId: number, id: number): Promise<void> {
  const { db } = deps.database;
  const list = await ownList(db, userId, id);
  if (list.default_of !== null) throw invalid('errors.watchlistDefault');
  await withTx(deps.database, async (trx) => {
    await trx.deleteFrom('watchlist_items').where('list_id', '=', id).execute();
    await trx.deleteFrom('watchlists').where('id', '=', id).where('user_id', '=', userId).execute();
  });
}

/** Adds a listed symbol (canonical spelling) to a list of the caller's; idempotent. */
export async function addItem(deps: Deps, userId: number, listId: number, symbol: string): Promise<void> {
  await withTx(deps.database, async (trx) => {
    await ownList(trx, userId, listId);
    await lockUser(deps, trx, userId);
    const there = await trx
      .selectFrom('watchlist_items')
      .select('symbol')
      .where('list_id', '=', listId)
      .where('symbol', '=', symbol)
      .executeTakeFirst();
    if (there) return;
    const count = await trx
      .selectFrom('watchlist_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('list_id', '=', listId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= WATCHLIST_MAX_ITEMS) throw conflict('errors.watchlistFull');
    await trx
      .insertInto('watchlist_items')
      .values({ list_id: listId, symbol, created_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['list_id', 'symbol']).doNothing())
      .execute();
  });
}

/** Removes any of `symbols` (spellings of one instrument) from a list of the caller's. */
export async function removeItem(
  deps: Deps,
  userId: number,
  listId: number,
  symbols: string[],
): Promise<void> {
  const { db } = deps.database;
  await ownList(db, userId, listId);
  await db
    .deleteFrom('watchlist_items')
    .where('list_id', '=', listId)
    .where('symbol', 'in', symbols)
    .execute();
}

export async function hasItem(deps: Deps, listId: number, symbol: string): Promise<boolean> {
  const row = await deps.database.db
    .selectFrom('watchlist_items')
    .select('symbol')
    .where('list_id', '=', listId)
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return row !== undefined;
}

export async function membership(deps: Deps, userId: number, symbol: string): Promise<number[]> {
  const rows = await deps.database.db
    .selectFrom('watchlist_items')
    .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
    .select('watchlists.id')
    .where('watchlists.user_id', '=', userId)
    .where('watchlist_items.symbol', '=', symbol)
    .orderBy('watchlists.position')
    .execute();
  return rows.map((r) => r.id);
}

/** A page of a list's instruments, newest first, priced at the market's quotes. */
export async function items(
  deps: Deps,
  listId: number,
  page: number,
  size: number,
): Promise<{ list: WatchlistItem[]; total: number }> {
  const { db } = deps.database;
  const [rows, total] = await Promise.all([
    db
      .selectFrom('watchlist_items')
      .select('symbol')
      .where('list_id', '=', listId)
      .orderBy('created_at', 'desc')
      .orderBy('symbol')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    db
      .selectFrom('watchlist_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('list_id', '=', listId)
      .executeTakeFirstOrThrow(),
  ]);
  const list = rows.map(({ symbol }): WatchlistItem => {
    const ins = deps.market.instrument(symbol);
    const q = deps.market.quote(symbol);
    return {
      stock_name: ins?.name ?? symbol,
      stock_code: symbol,
      // A symbol the market no longer quotes keeps its place with as_of 0: "no price", not a fake one.
      stock_detail: {
        market: ins?.market ?? '',
        prasent: q?.price ?? 0,
        close_prices: q?.prevClose ?? 0,
        percent_change: q?.changePercent ?? 0,
        change: q?.change ?? 0,
        market_name: ins?.market ?? '',
        exchange_name: ins?.exchange ?? '',
        decimals: ins?.decimals ?? 2,
        as_of: q?.asOf ?? 0,
      },
    };
  });
  return { list, total: Number(total.n) };
}

export async function ownItems(deps: Deps, userId: number, listId: number, page: number, size: number) {
  await ownList(deps.database.db, userId, listId);
  return items(deps, listId, page, size);
}

/**
 * Serialises one user's limit checks: PostgreSQL locks the user row for the transaction; SQLite
 * has one writer, so the transaction itself is enough.
 */
async function lockUser(deps: Deps, trx: Db, userId: number): Promise<void> {
  if (deps.database.dialect !== 'postgres') return;
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}
