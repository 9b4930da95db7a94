import type { DepthLevel } from '#shared/contract/market';
import type { Book, Quote } from '../provider';
import type { Spec } from '../universe';
import { hash, hashString, unit } from './random';

/** Levels on each side of the book. */
const DEPTH_LEVELS = 5;

/**
 * The simulator's order book around its quote: the quote is the mid of the best bid and ask, the
 * spread widens as the instrument's typical volume falls (a liquid large cap quotes a tick or two
 * wide, a thin name tens of basis points), and the sizes scale with that volume. Sizes are drawn
 * from (seed, symbol, second, level), so one second's book is stable and the next one moves.
 */
export function simulatedBook(spec: Spec, quote: Quote, seed: number): Book {
  const tick = 10 ** -spec.decimals;
  const toTicks = (p: number) => Math.round(p / tick);
  const liquidity = Math.max(1, spec.volume);
  // Relative spread: 0.5/√volume, between 1 bp and 1 %.
  const relSpread = Math.min(0.01, Math.max(0.0001, 0.5 / Math.sqrt(liquidity)));
  const mid = toTicks(quote.price);
  const half = Math.max(1, Math.round((quote.price * relSpread) / 2 / tick));
  const step = Math.max(1, Math.round(half / 2));
  const typical = Math.max(1, liquidity / 4000);
  const second = Math.floor(quote.asOf / 1000);
  const sym = hashString(spec.symbol);
  const side = (dir: 1 | -1): DepthLevel[] => {
    let total = 0;
    const levels: DepthLevel[] = [];
    for (let i = 0; i < DEPTH_LEVELS; i++) {
      const at = mid + dir * (half + i * step);
      // Deeper levels hold a little more, as books usually do.
      const size = typical * (0.4 + 1.2 * unit(hash(seed, sym, second, i, dir + 2))) * (1 + i * 0.25);
      const qty = Math.max(1, Math.round(size));
      total += qty;
      levels.push({ price: Number((Math.max(at, 1) * tick).toFixed(spec.decimals)), qty, total });
    }
    return levels;
  };
  const bids = side(-1);
  const asks = side(1);
  return { bids, asks, spread: Number((asks[0]!.price - bids[0]!.price).toFixed(spec.decimals)) };
}
