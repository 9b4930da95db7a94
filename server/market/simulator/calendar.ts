import { civilDay } from '../hours';

/**
 * Trading-day ordinals: every weekday since the fixed epoch has a number k, so a day's hashes and
 * its place in the walk do not depend on when the server started.
 */

/** First day of every history: 2018-01-01, a Monday. */
export const EPOCH_DAY = civilDay(2018, 1, 1);
/** The date where the trend equals the catalogue's base price. */
export const REF_DAY = civilDay(2026, 1, 1);

/** Trading-day ordinal k (weekdays since EPOCH) → date. */
export function dayOfOrdinal(k: number): number {
  const r = ((k % 5) + 5) % 5;
  return EPOCH_DAY + 7 * ((k - r) / 5) + r;
}

/** Date → ordinal of that weekday, or of the next one for a weekend date. */
export function ordinalOfDay(day: number): number {
  const d = day - EPOCH_DAY;
  const week = Math.floor(d / 7);
  const r = d - week * 7;
  return r >= 5 ? (week + 1) * 5 : week * 5 + r;
}
