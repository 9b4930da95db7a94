import { divRoundHalfUp, MONEY_SCALE, PRICE_SCALE } from './money';

/**
 * Mutual-fund units and NAVs, exactly: the rules the server strikes orders by and the app shows.
 * A NAV is published to 4 decimals (AMFI) and kept as price ticks (1/10,000); units are allotted
 * to 3 decimals and kept as thousandths. Amounts of money stay minor units (money.ts).
 */

/** Thousandths of a unit in a unit: units are allotted to three decimals. */
export const UNIT_SCALE = 1000;
/** Parts per million in a whole: exit loads (0.0070 %), stamp duty (0.005 %) and STT (0.001 %). */
const PPM_SCALE = 1_000_000;
/** Stamp duty on a mutual-fund purchase (India, since July 2020): 0.005 % of the amount. */
export const FUND_STAMP_PPM = 50;
/** STT on the redemption of an equity-oriented fund's units: 0.001 % of the value, paid by the seller. */
export const FUND_STT_PPM = 10;

/** The ranges of a fund's NAV chart. */
export const NAV_RANGES = ['1m', '6m', '1y', '3y', 'all'] as const;
export type NavRange = (typeof NAV_RANGES)[number];

/** The SEBI riskometer (since 2021): 1 Low … 6 Very high. */
export const RISKOMETER_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** The SEBI categories the catalogue uses; equity and hybrid funds are equity-oriented (STT on redemption). */
const FUND_CATEGORIES = ['liquid', 'debt', 'gilt', 'hybrid', 'equity', 'international'] as const;
export type FundCategory = (typeof FUND_CATEGORIES)[number];

export function isEquityOriented(category: FundCategory): boolean {
  return category === 'equity' || category === 'hybrid';
}

/**
 * The units an amount buys at a NAV, rounded DOWN to the thousandth (an AMC never allots a unit it
 * was not paid for; what the rounding leaves, at most a thousandth of a NAV, stays in the cost).
 */
export function unitsFor(netMinor: number, navTicks: number): number {
  if (navTicks <= 0) throw new RangeError(`not a NAV: ${navTicks}`);
  const n = BigInt(netMinor) * BigInt(UNIT_SCALE) * BigInt(PRICE_SCALE);
  return Number(n / (BigInt(navTicks) * BigInt(MONEY_SCALE)));
}

/** What units are worth at a NAV, in minor units, HALF_UP (the project's one rounding rule). */
export function unitsValue(units: number, navTicks: number): number {
  const n = BigInt(units) * BigInt(navTicks) * BigInt(MONEY_SCALE);
  return Number(divRoundHalfUp(n, BigInt(UNIT_SCALE) * BigInt(PRICE_SCALE)));
}

/** `ppm` parts per million of an amount, HALF_UP: stamp duty, exit load, STT. */
export function ppmOf(minor: number, ppm: number): number {
  return Number(divRoundHalfUp(BigInt(minor) * BigInt(ppm), BigInt(PPM_SCALE)));
}

/** "12.345" from 12_345 thousandths. */
export function unitsText(units: number): string {
  const whole = Math.floor(units / UNIT_SCALE);
  return `${whole}.${String(units % UNIT_SCALE).padStart(3, '0')}`;
}

const UNITS_RE = /^(\d{1,12})(?:\.(\d{1,3}))?$/;

/** Units typed or sent as text ("12.5", "0.125"), exactly, as thousandths; null otherwise. */
export function parseUnits(text: string): number | null {
  const m = UNITS_RE.exec(text.trim());
  if (!m) return null;
  const units = Number(m[1]) * UNIT_SCALE + Number((m[2] ?? '').padEnd(3, '0'));
  return Number.isSafeInteger(units) ? units : null;
}

/** "1234.5678" from NAV ticks. */
export function navText(ticks: number): string {
  const whole = Math.floor(ticks / PRICE_SCALE);
  return `${whole}.${String(ticks % PRICE_SCALE).padStart(4, '0')}`;
}

/** A percent of parts per million as the fewest decimals that say it exactly ("1", "0.007", "0.25"). */
export function ppmPercentText(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const frac = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** A NAV date ("2026-11-25", the Indian calendar day) as an instant inside it, for date formatters. */
export function navDateMs(date: string): number {
  return Date.parse(`${date}T12:00:00+05:30`);
}

const NAV_RE = /^(\d{1,9})\.(\d{4})$/;

/** A NAV as the server writes it ("1798.6274") as ticks, exactly; null otherwise. */
export function parseNav(text: string): number | null {
  const m = NAV_RE.exec(text);
  return m ? Number(m[1]) * PRICE_SCALE + Number(m[2]) : null;
}
