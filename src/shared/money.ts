/**
 * Money is exact. Amounts travel in answers as decimal strings with two places ("1234.50") and are
 * stored and computed as integer minor units (paise/cents). Instrument prices are display numbers;
 * when money depends on them they become integer ticks of 1/10,000 first.
 * The one rounding rule is HALF_UP (half away from zero), applied once, at the edge.
 */
const MONEY_DECIMALS = 2;
export const MONEY_SCALE = 100;
export const PRICE_SCALE = 10_000;
/** Basis points in a whole (1 bp = 0.01 %): fees, returns and tolerances are whole basis points. */
export const BPS_SCALE = 10_000;

/** A decimal amount of account currency with exactly two places, e.g. "1234.50". */
export type Money = string;

const MONEY_RE = /^(-)?(\d{1,15})(?:\.(\d{1,2}))?$/;

/** Parses a decimal string exactly; null for anything that is not a plain amount. */
export function toMinor(text: string): number | null {
  const m = MONEY_RE.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[2]);
  const frac = Number((m[3] ?? '').padEnd(2, '0'));
  const minor = whole * MONEY_SCALE + frac;
  if (!Number.isSafeInteger(minor)) return null;
  return m[1] ? -minor : minor;
}

export function fromMinor(minor: number): Money {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / MONEY_SCALE);
  const frac = String(abs % MONEY_SCALE).padStart(MONEY_DECIMALS, '0');
  return `${sign}${whole}.${frac}`;
}

/** Whole units of currency (e.g. a typed "5000") to minor units. */
export function unitsToMinor(units: number): number {
  return Math.round(units * MONEY_SCALE);
}

/** Whole units of an amount, rounded down ("withdraw all" offers what whole units allow). */
export function minorToWholeUnits(minor: number): number {
  return Math.floor(minor / MONEY_SCALE);
}

/** Minor units as a plain number of units, for display only (Intl formatting): never for arithmetic. */
export function minorToDisplayNumber(minor: number): number {
  return minor / MONEY_SCALE;
}

export function priceToTicks(price: number): number {
  return Math.round(price * PRICE_SCALE);
}

export function ticksToPrice(ticks: number): number {
  return ticks / PRICE_SCALE;
}

/** HALF_UP division of integers: the project's single rounding rule. */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const neg = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (2n * ad);
  return neg ? -q : q;
}

/**
 * Account-currency minor units for `qty` at `priceTicks`, converted with `rateTicks` (account
 * currency per unit of the instrument's currency, in ticks; PRICE_SCALE means 1:1).
 */
export function tradeValueMinor(priceTicks: number, qty: number, rateTicks: number = PRICE_SCALE): number {
  const n = BigInt(priceTicks) * BigInt(qty) * BigInt(rateTicks) * BigInt(MONEY_SCALE);
  const d = BigInt(PRICE_SCALE) * BigInt(PRICE_SCALE);
  return Number(divRoundHalfUp(n, d));
}

/**
 * `bps` basis points (1 bp = 0.01 %) of an amount, HALF_UP: the one rule for fees, fund returns and
 * loan interest alike.
 */
export function feeMinor(amountMinor: number, bps: number): number {
  return Number(divRoundHalfUp(BigInt(amountMinor) * BigInt(bps), BigInt(BPS_SCALE)));
}

/**
 * A price made from another (an issue price under the market, a band's floor, a discounted block
 * price): `bps` basis points of `priceTicks` (9_500 is 95 %), HALF_UP to a price of `decimals`
 * places (0 to 4), in ticks. Exact: the product is never a binary float.
 */
export function priceAtBps(priceTicks: number, bps: number, decimals: number): number {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 4)
    throw new RangeError(`decimals ${decimals}`);
  const step = BigInt(PRICE_SCALE / 10 ** decimals);
  return Number(divRoundHalfUp(BigInt(priceTicks) * BigInt(bps), BigInt(BPS_SCALE) * step) * step);
}

/**
 * A rate given in currency units per crore (10^7) of turnover — how Indian exchanges and SEBI publish
 * their charges (₹10 per crore; 0.00297 % is ₹297 per crore) — of an amount, HALF_UP. Any
 * percentage with up to seven decimal places of a unit is a whole number of these.
 */
export function perCroreOfMinor(amountMinor: number, perCrore: number): number {
  return Number(divRoundHalfUp(BigInt(amountMinor) * BigInt(perCrore), 10_000_000n));
}

/**
 * Conversion rates are decimals with at most 4 places, kept as integer ticks (PRICE_SCALE per unit:
 * 88.7123 → 887_123), like prices. These two are the only places a rate is made: a written rate is
 * taken exactly or refused, and an inverse pair's rate (USD per EUR from EUR per USD) is the one
 * rate that is rounded — HALF_UP to ticks, once; every amount converted with a rate is then
 * `tradeValueMinor`'s single HALF_UP to the minor unit.
 */
const RATE_RE = /^(\d{1,9})(?:\.(\d{1,4}))?$/;

/** A positive decimal rate ("20", "20.29", "88.7123") as ticks, exactly; null for anything else. */
export function rateToTicks(text: string | null | undefined): number | null {
  const m = RATE_RE.exec((text ?? '').trim());
  if (!m) return null;
  const ticks = Number(m[1]) * PRICE_SCALE + Number((m[2] ?? '').padEnd(4, '0'));
  return ticks > 0 ? ticks : null;
}

/** 1 / rate, in ticks, HALF_UP (a quote of the account currency in USD read the other way round). */
export function invertRateTicks(ticks: number): number {
  if (!Number.isSafeInteger(ticks) || ticks <= 0) throw new RangeError(`not a rate: ${ticks}`);
  return Number(divRoundHalfUp(BigInt(PRICE_SCALE) * BigInt(PRICE_SCALE), BigInt(ticks)));
}
