import { useCallback, useEffect, useMemo } from 'react';
import type { FavouriteState } from '../../workers/favourites';
import { worker } from '../api/client';
import { useWatch, type Watched } from '../api/hooks';
import type { WatchlistItem } from '../shared/contract/trading';
import { PAGE_SIZE } from '../shared/rules';
import { useSession } from '../store/session';
import { useDeviceView } from './view';

/**
 * Favourites for the screens. A toggle is applied on the device at once and sent when online
 * (replayed in order after an offline spell); until the server confirmed it the favourite is
 * `pending`, which screens show as "pending sync". The state is read from the device store
 * (`useDeviceView`: a live query, so it follows the worker's writes and other tabs').
 */
const NONE: Record<string, FavouriteState> = {};

/** Every favourite the device knows about, by symbol. */
export function useFavouriteMap(): Record<string, FavouriteState> {
  return useDeviceView('favourites', NONE);
}

export interface FavouriteView {
  /** Undefined until known (the device has no record and the server has not answered yet). */
  on: boolean | undefined;
  /** A change waits to be confirmed by the server. */
  pending: boolean;
  toggle: () => void;
}

/** The star of one instrument (stock detail). Pass name/market so an offline add can be listed. */
export function useFavourite(
  symbol: string | null,
  meta: { name?: string; market?: string } = {},
): FavouriteView {
  const all = useFavouriteMap();
  const signedIn = useSession((s) => s.token !== null);
  const state = symbol ? all[symbol] : undefined;

  useEffect(() => {
    if (symbol && signedIn) void worker().checkFavourite(symbol);
  }, [symbol, signedIn]);

  const { name, market } = meta;
  const on = state?.on;
  const toggle = useCallback(() => {
    if (symbol) void worker().toggleFavourite(symbol, !on, { name, market });
  }, [symbol, on, name, market]);

  return { on, pending: state?.pending === 1, toggle };
}

export type FavouriteItem = WatchlistItem & {
  /** `add`: added on this device, not confirmed yet; `remove`: removed, not confirmed yet. */
  pending: 'add' | 'remove' | null;
};

/**
 * A row for an instrument added on this device and not confirmed yet: no quote of its own (the
 * row shows the live one from `useQuote`), so every price is NaN rather than a made-up zero.
 */
export function pendingAdd(symbol: string, name?: string | null, market?: string | null): FavouriteItem {
  return {
    stock_code: symbol,
    stock_name: name ?? symbol,
    stock_detail: {
      market: market ?? '',
      prasent: Number.NaN,
      close_prices: Number.NaN,
      percent_change: Number.NaN,
      change: Number.NaN,
      market_name: '',
      exchange_name: '',
      decimals: 2,
      as_of: 0,
    },
    pending: 'add',
  };
}

/**
 * The watchlist (SPEC `collection/list`, polled like prices every 5 s) with this device's
 * unconfirmed changes applied: pending adds first, pending removals marked. Offline it shows the
 * last known list (`stale`, `updatedAt`). Live prices for the rows: `useQuote(item.stock_code)`.
 */
export function useFavourites(
  page = 1,
  pageSize = PAGE_SIZE,
  intervalMs = 5000,
): Omit<Watched<unknown>, 'data'> & { items: FavouriteItem[]; total: number; reload: () => void } {
  const watched = useWatch('favouriteList', { page, pageSize }, intervalMs);
  const local = useFavouriteMap();
  const items = useMemo(
    () => overlayFavourites(watched.data?.list ?? [], local, page === 1),
    [watched.data, local, page],
  );
  const { data: _data, ...rest } = watched;
  const added = items.filter(
    (i) => i.pending === 'add' && !watched.data?.list.some((l) => l.stock_code === i.stock_code),
  );
  return { ...rest, items, total: (watched.data?.total ?? 0) + added.length };
}

/** Applies the device's pending changes to a page of the server's list. */
export function overlayFavourites(
  list: WatchlistItem[],
  local: Record<string, FavouriteState>,
  includeAdds: boolean,
): FavouriteItem[] {
  const listed = new Set(list.map((i) => i.stock_code));
  const adds: FavouriteItem[] = includeAdds
    ? Object.entries(local)
        .filter(([symbol, s]) => s.on && s.pending && !listed.has(symbol))
        .map(([symbol, s]) => pendingAdd(symbol, s.name, s.market))
    : [];
  const rows: FavouriteItem[] = list.map((item) => {
    const s = local[item.stock_code];
    return { ...item, pending: s?.pending ? (s.on ? null : 'remove') : null };
  });
  // An item listed by the server and re-added here is confirmed already.
  return [...adds, ...rows];
}
