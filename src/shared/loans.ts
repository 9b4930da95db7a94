import { BPS_SCALE, divRoundHalfUp } from './money';

/**
 * Loan interest and late charges, written once for the server (which accrues and
 * collects them) and the app (which shows the total repayable before applying). Simple interest on
 * the principal, counted in whole days since disbursement: interest for `days` days is
 * principal × yearly rate × days / 365, late charges principal × daily rate × days overdue. Each is
 * computed for the whole span at once and rounded HALF_UP once (`divRoundHalfUp`), so a job that
 * posts day by day posts the differences of those totals and never drifts from them.
 */

export const DAY_MS = 86_400_000;
/** Days in the interest year (Indian lenders' convention for rupee loans: actual/365). */
export const LOAN_YEAR_DAYS = 365;

/** Interest on `principalMinor` at `rateBps` a year (1,400 = 14 % p.a.) for `days` whole days, HALF_UP. */
export function loanInterestMinor(principalMinor: number, rateBps: number, days: number): number {
  if (days <= 0 || rateBps <= 0) return 0;
  const n = BigInt(principalMinor) * BigInt(rateBps) * BigInt(days);
  return Number(divRoundHalfUp(n, BigInt(BPS_SCALE) * BigInt(LOAN_YEAR_DAYS)));
}

/** Late charges on `principalMinor` at `bpsPerDay` for `days` whole days overdue, HALF_UP. */
export function lateChargeMinor(principalMinor: number, bpsPerDay: number, days: number): number {
  if (days <= 0 || bpsPerDay <= 0) return 0;
  return Number(divRoundHalfUp(BigInt(principalMinor) * BigInt(bpsPerDay) * BigInt(days), BigInt(BPS_SCALE)));
}

/** Whole days from `from` to `to` (0 before a day has passed). */
export function wholeDays(from: number, to: number): number {
  return to <= from ? 0 : Math.floor((to - from) / DAY_MS);
}

/** A percent as written ("14", "0.05", at most two decimals) in basis points, or null. */
export function percentToBps(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Basis points as a percent number for the contract (1,400 → 14, 5 → 0.05): exact to two decimals. */
export function bpsToPercent(bps: number): number {
  return bps / 100;
}

/** A contract percent (at most two decimals) back in basis points. */
export function percentNumberToBps(percent: number): number {
  return Math.round(percent * 100);
}
