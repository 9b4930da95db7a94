import { DAY_MS, dayStart, localDay } from '#shared/market-hours';

/**
 * The fund calendar, on Indian days (IST) and business days (Monday to Friday; exchange holidays
 * are not modelled, as for the market). SEBI's rule as this broker applies it to every scheme: an
 * order received before the 15:00 IST cut-off of a business day gets that day's NAV, a later one
 * (or one on a weekend) the next business day's; the AMC strikes a day's NAV after the markets
 * close and publishes it by 21:00 IST, when pending orders are allotted or paid at it.
 */

const MINUTE_MS = 60_000;
/** Cut-off for purchases and redemptions, minutes after midnight IST. */
const CUTOFF_MINUTES = 15 * 60;
/** When a day's NAV is published and orders are struck at it, minutes after midnight IST. */
const PUBLISH_MINUTES = 21 * 60;

/** Days since 1970-01-01 of an instant, on the Indian calendar. */
export const indianDay = (at: number): number => localDay('NSE', at);

export function isBusinessDay(day: number): boolean {
  const w = (((day + 4) % 7) + 7) % 7;
  return w >= 1 && w <= 5;
}

export const cutoffOf = (day: number): number => dayStart('NSE', day) + CUTOFF_MINUTES * MINUTE_MS;
export const publishedAt = (day: number): number => dayStart('NSE', day) + PUBLISH_MINUTES * MINUTE_MS;

/** The business day whose NAV an order received at `at` gets. */
export function navDayFor(at: number): number {
  let day = indianDay(at);
  if (isBusinessDay(day) && at < cutoffOf(day)) return day;
  do day++;
  while (!isBusinessDay(day));
  return day;
}

/** The latest business day whose NAV is published at `at`. */
export function latestNavDay(at: number): number {
  let day = indianDay(at);
  if (isBusinessDay(day) && at >= publishedAt(day)) return day;
  do day--;
  while (!isBusinessDay(day));
  return day;
}

/** The business day before `day`. */
export function previousBusinessDay(day: number): number {
  let d = day - 1;
  while (!isBusinessDay(d)) d--;
  return d;
}

/** "2026-11-25" of a day number. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of "2026-11-25". */
export function dayOfIso(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}
