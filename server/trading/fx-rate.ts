import type { FxPreview, FxState } from '#shared/backoffice';
import {
  fromMinor,
  PRICE_SCALE,
  priceToTicks,
  rateToTicks,
  ticksToPrice,
  tradeValueMinor,
} from '#shared/money';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { invalid } from '../lib/errors';
import { setConfiguredRateIn, usdRate } from './fx';
import { currencyOf } from './placement';

/**
 * The USD rate set by staff (the back office's routes and the console's `rate:set`): previewed with its effect (what US$1,000 and the
 * customers' US holdings are worth at each rate) before it is set, audited.
 */

const rateText = (ticks: number | null) => (ticks === null ? null : ticksToPrice(ticks).toFixed(4));

export async function fxState(deps: Deps): Promise<FxState> {
  const { db } = deps.database;
  const rate = await usdRate(deps, db);
  const rows = await db
    .selectFrom('config')
    .select(['tag', 'value'])
    .where('tag', 'in', ['rate', 'rate_set_at'])
    .execute();
  const configured = rows.find((r) => r.tag === 'rate')?.value ?? null;
  const setAt = Number(rows.find((r) => r.tag === 'rate_set_at')?.value ?? Number.NaN);
  const configuredTicks = configured === null ? null : rateToTicks(configured);
  return {
    source: rate.source ?? 'none',
    rate: rateText(rate.ticks),
    fresh: rate.fresh,
    configured,
    configuredAt: Number.isSafeInteger(setAt) ? setAt : null,
    // How far the fallback is from the live rate it would replace, in basis points of the live one.
    gapBps:
      rate.source === 'live' && rate.ticks && configuredTicks !== null
        ? Math.round(((configuredTicks - rate.ticks) * 10_000) / rate.ticks)
        : null,
  };
}

/** The rate before it is set: what US$1,000 and the customers' US holdings are worth at each. */
export async function fxPreview(deps: Deps, next: string): Promise<FxPreview> {
  const ticks = rateToTicks(next);
  if (ticks === null) throw invalid('ops.errors.rate');
  const { db } = deps.database;
  const current = await usdRate(deps, db);
  const positions = await db.selectFrom('positions').select(['symbol', 'qty']).where('qty', '>', 0).execute();
  let usdTicks: Array<{ price: number; qty: number }> = [];
  usdTicks = positions.flatMap((p) => {
    if (currencyOf(deps, p.symbol, '') !== 'USD') return [];
    const quote = deps.market.quote(p.symbol);
    return quote ? [{ price: priceToTicks(quote.price), qty: p.qty }] : [];
  });
  const worth = (rate: number) => usdTicks.reduce((n, h) => n + tradeValueMinor(h.price, h.qty, rate), 0);
  const example = (rate: number) => fromMinor(tradeValueMinor(1000 * PRICE_SCALE, 1, rate));
  return {
    current: await fxState(deps),
    next: rateText(ticks)!,
    example: {
      usd: '1000.00',
      now: current.ticks === null ? null : example(current.ticks),
      next: example(ticks),
    },
    holdings: {
      now: current.ticks === null ? null : fromMinor(worth(current.ticks)),
      next: fromMinor(worth(ticks)),
    },
    changeBps: current.ticks === null ? null : Math.round(((ticks - current.ticks) * 10_000) / current.ticks),
  };
}

export async function setFxRate(deps: Deps, actor: Actor, value: string): Promise<FxState> {
  if (rateToTicks(value) === null) throw invalid('ops.errors.rate');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await trx
      .selectFrom('config')
      .select(['tag', 'value'])
      .where('tag', 'in', ['rate', 'rate_set_at'])
      .execute();
    await setConfiguredRateIn(deps, trx, value);
    return {
      result: undefined,
      entry: {
        action: 'fx:set',
        targetType: 'config',
        targetId: 'rate',
        before: Object.fromEntries(before.map((r) => [r.tag, r.value])),
        after: { rate: value.trim() },
      },
    };
  });
  return fxState(deps);
}
