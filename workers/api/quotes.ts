import type { QuoteDelta } from '../quotes';
import type { Context } from './context';

/** The quotes domain: last known prices; live changes arrive on the `quotes` topic. */
export function quotesApi(ctx: Context) {
  let off: (() => void) | null = null;
  ctx.events.on('quotes', {
    first: () => {
      off = ctx.hub.subscribe((deltas) => ctx.events.emit('quotes', deltas));
    },
    last: () => {
      off?.();
      off = null;
    },
  });
  return {
    /** Last known prices (this session's, else the device's). */
    quotes(symbols: string[]): Promise<QuoteDelta[]> {
      return ctx.hub.get(symbols);
    },
  };
}
