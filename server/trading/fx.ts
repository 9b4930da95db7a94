import type { Kysely } from 'kysely';
import { CONFIG_TAGS } from '#shared/config-tags';
import type { FxRate as FxRateAnswer } from '#shared/contract/invest';
import { invertRateTicks, PRICE_SCALE, priceToTicks, rateToTicks, ticksToPrice } from '#shared/money';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../lib/errors';
import { isMarketOpen, lastSession } from '../market/hours';

/**
 * The one USD → account-currency rate (DESIGN "Currency conversion"). Every conversion
 * of a USD amount — a block/QIP or IPO buy, a stock order, a lot sale, a valuation, and the app's
 * previews through `fxRate` — takes its rate from here:
 *
 * 1. the live quote of USD in the account currency (`USD<unit>=X`, or `<unit>USD=X` read the other
 *    way round) while it is fresh: its price is at most `config.fx.quoteMaxAgeMs` older than the
 *    newest its market can have — now while the forex market is open, its last close while shut;
 * 2. else the configured rate (config `rate`) while it is fresh: the operator set it
 *    (`npm run ops -- rate:set`, which stamps `rate_set_at`) at most `config.fx.configuredMaxAgeMs`
 *    ago — a rate nobody set (the seed's default) is never fresh;
 * 3. else nothing fresh: money in USD is refused with `errors.rateNotUpdated` (SPEC §8 "Exchange
 *    rate has not been updated", 409) and nothing changes. Valuations still use the best rate known
 *    (the stale quote, else the configured one) and the app labels it stale.
 *
 * A trade records the rate it used (`orders.rate`, ticks), so its audit and history stay exact
 * after the rate moves.
 */

export type RateSource = 'live' | 'configured';

export interface FxRate {
  /** The account currency, e.g. INR. */
  unit: string;
  /** Account-currency ticks (PRICE_SCALE per unit) per USD; null when no rate is known at all. */
  ticks: number | null;
  source: RateSource | null;
  /** The quote's time, or when the operator set the configured rate; null when unknown. */
  asOf: number | null;
  /** Whether money may move at `ticks`. */
  fresh: boolean;
  /** The market pair read for the live rate, when the market lists one. */
  symbol: string | null;
}

/** What the decision needs, already read: pure, so every rule above is a unit test. */
export interface FxInputs {
  unit: string;
  now: number;
  /** The live pair's price in ticks (already the right way round), its time, and the newest time its market can have. */
  live: { symbol: string; ticks: number; asOf: number; newest: number } | null;
  /** Config `rate` as stored and `rate_set_at`. */
  configured: { value: string | undefined; setAt: string | undefined };
  maxAge: { quoteMaxAgeMs: number; configuredMaxAgeMs: number };
}

export function decideUsdRate(i: FxInputs): FxRate {
  if (i.unit === 'USD') {
    return { unit: i.unit, ticks: PRICE_SCALE, source: 'live', asOf: i.now, fresh: true, symbol: null };
  }
  const symbol = i.live?.symbol ?? null;
  const live = i.live && i.live.ticks > 0 ? i.live : null;
  if (live && live.asOf >= live.newest - i.maxAge.quoteMaxAgeMs) {
    return { unit: i.unit, ticks: live.ticks, source: 'live', asOf: live.asOf, fresh: true, symbol };
  }
  const configured = rateToTicks(i.configured.value);
  const setAt = i.configured.setAt === undefined ? Number.NaN : Number(i.configured.setAt);
  const setKnown = Number.isSafeInteger(setAt) && setAt > 0;
  if (configured !== null && setKnown && setAt <= i.now && i.now - setAt <= i.maxAge.configuredMaxAgeMs) {
    return { unit: i.unit, ticks: configured, source: 'configured', asOf: setAt, fresh: true, symbol };
  }
  // Nothing fresh: the best rate known, for valuations and the app's stale label only.
  if (live) return { unit: i.unit, ticks: live.ticks, source: 'live', asOf: live.asOf, fresh: false, symbol };
  return {
    unit: i.unit,
    ticks: configured,
    source: configured === null ? null : 'configured',
    asOf: configured !== null && setKnown ? setAt : null,
    fresh: false,
    symbol,
  };
}

/** Config values the rate depends on, as stored (hot reads select the same three). */
export interface FxConfig {
  unit: string | undefined;
  rate: string | undefined;
  setAt: string | undefined;
}

/** The live USD quote in the account currency from the market, the right way round; null without one. */
function liveQuote(deps: Deps, unit: string, now: number): FxInputs['live'] {
  for (const [symbol, inverse] of [
    [`USD${unit}=X`, false],
    [`${unit}USD=X`, true],
  ] as const) {
    const instrument = deps.market.instrument(symbol);
    const quote = instrument && deps.market.quote(symbol);
    if (!instrument || !quote || !(quote.price > 0)) continue;
    const ticks = inverse ? invertRateTicks(priceToTicks(quote.price)) : priceToTicks(quote.price);
    const newest = isMarketOpen(instrument, now) ? now : lastSession(instrument.schedule, now).close;
    return { symbol, ticks, asOf: quote.asOf, newest };
  }
  return null;
}

/** The rate now, from config values already read (user info reads them with its own snapshot). */
export function usdRateFrom(deps: Deps, config: FxConfig): FxRate {
  const now = deps.clock.now();
  const unit = config.unit || 'INR';
  return decideUsdRate({
    unit,
    now,
    live: unit === 'USD' ? null : liveQuote(deps, unit, now),
    configured: { value: config.rate, setAt: config.setAt },
    maxAge: deps.config.fx,
  });
}

const FX_TAGS = [CONFIG_TAGS.currencyUnit, CONFIG_TAGS.rate, CONFIG_TAGS.rateSetAt];

async function readFxConfig(db: Kysely<DB>): Promise<FxConfig> {
  const rows = await db.selectFrom('config').select(['tag', 'value']).where('tag', 'in', FX_TAGS).execute();
  const get = (tag: string) => rows.find((r) => r.tag === tag)?.value;
  return {
    unit: get(CONFIG_TAGS.currencyUnit),
    rate: get(CONFIG_TAGS.rate),
    setAt: get(CONFIG_TAGS.rateSetAt),
  };
}

/** The rate now (the app's `fxRate`, valuations). */
export async function usdRate(deps: Deps, db: Kysely<DB>): Promise<FxRate> {
  return usdRateFrom(deps, await readFxConfig(db));
}

/** The rate now as the app's previews get it (`fxRate`: the app never sends a rate). */
export async function usdRateAnswer(deps: Deps, db: Kysely<DB>): Promise<FxRateAnswer> {
  const r = await usdRate(deps, db);
  return {
    unit: r.unit,
    rate: r.ticks === null ? null : ticksToPrice(r.ticks),
    source: r.source,
    as_of: r.asOf,
    fresh: r.fresh,
    symbol: r.symbol,
  };
}

/**
 * The operator's rate (`npm run ops -- rate:set`): the value, exactly (at most 4 decimals), and the
 * time it was set, which starts its FX_RATE_MAX_AGE_MS of freshness. Both in one transaction.
 */
export async function setConfiguredRate(deps: Deps, value: string): Promise<void> {
  await withTx(deps.database, (trx) => setConfiguredRateIn(deps, trx, value));
}

/** `setConfiguredRate` in the caller's transaction (the back office's audited change). */
export async function setConfiguredRateIn(deps: Deps, trx: Kysely<DB>, value: string): Promise<void> {
  const ticks = rateToTicks(value);
  if (ticks === null) throw new ApiError('ops.errors.rate', 400);
  const now = deps.clock.now();
  for (const [tag, v] of [
    [CONFIG_TAGS.rate, value.trim()],
    [CONFIG_TAGS.rateSetAt, String(now)],
  ]) {
    await trx
      .insertInto('config')
      .values({ tag: tag!, value: v! })
      .onConflict((oc) => oc.column('tag').doUpdateSet({ value: v! }))
      .execute();
  }
}

/** SPEC §8 "Exchange rate has not been updated". */
const RATE_NOT_UPDATED = 'errors.rateNotUpdated';

/**
 * Account-currency ticks per unit of `currency` for money that moves now: 1:1 for anything but
 * USD; for USD the fresh rate, or `errors.rateNotUpdated` (409) — callers throw before writing.
 */
export async function rateTicks(deps: Deps, db: Kysely<DB>, currency: string): Promise<number> {
  if (currency !== 'USD') return PRICE_SCALE;
  const rate = await usdRate(deps, db);
  if (!rate.fresh || rate.ticks === null) throw new ApiError(RATE_NOT_UPDATED, 409);
  return rate.ticks;
}

/** For valuations: the best rate known for `currency` (stale or not); null when none is known. */
export function valuationTicks(rate: FxRate, currency: string): number | null {
  return currency === 'USD' ? rate.ticks : PRICE_SCALE;
}
