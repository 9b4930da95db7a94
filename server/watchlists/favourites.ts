import type { WatchlistItem } from '#shared/contract/trading';
import { displayCode } from '#shared/rules';
import type { Deps } from '../deps';
import {
  addItem,
  canonicalSymbol,
  defaultListId,
  hasItem,
  items,
  listedSymbol,
  removeItem,
  spellings,
} from './lists';

/**
 * SPEC's favourites: the caller's default watchlist (lists.ts), by symbol. Removing what is not
 * there is not an error — toggles queued offline may arrive twice.
 */

/** Adds a listed symbol (an unknown one is not-found) in the market's spelling. */
export async function addFavourite(deps: Deps, userId: number, symbol: string): Promise<null> {
  const listed = listedSymbol(deps, symbol);
  await addItem(deps, userId, await defaultListId(deps, userId), listed);
  return null;
}

/** Removes a symbol, as sent or as the market spells it. */
export async function removeFavourite(deps: Deps, userId: number, symbol: string): Promise<null> {
  const list = await defaultListId(deps, userId);
  await removeItem(deps, userId, list, spellings(deps, symbol));
  return null;
}

/** Removes an instrument by its code, with or without its .NS/.BO suffix. */
export async function deleteFavourite(deps: Deps, userId: number, rawCode: string): Promise<null> {
  const code = displayCode(rawCode);
  const list = await defaultListId(deps, userId);
  await removeItem(deps, userId, list, [rawCode, code, `${code}.NS`, `${code}.BO`]);
  return null;
}

export async function isFavourite(
  deps: Deps,
  userId: number,
  symbol: string,
): Promise<{ collected: boolean }> {
  const list = await defaultListId(deps, userId);
  return { collected: await hasItem(deps, list, canonicalSymbol(deps, symbol)) };
}

export async function favourites(
  deps: Deps,
  userId: number,
  page: number,
  size: number,
): Promise<{ list: WatchlistItem[]; total: number }> {
  return items(deps, await defaultListId(deps, userId), page, size);
}
