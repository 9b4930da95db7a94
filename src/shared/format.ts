import { toMinor } from './money';

/**
 * Display formatting, written once: money from config (unit, symbol, 2 decimals, Indian digit
 * grouping for INR), prices with their instrument's decimals, signed changes and percents, times.
 */
export interface CurrencyDisplay {
  unit: string;
  symbol: string;
}

export const DEFAULT_CURRENCY: CurrencyDisplay = { unit: 'INR', symbol: '₹' };

const groupingLocale = (unit: string) => (unit === 'INR' ? 'en-IN' : 'en-US');

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}:${decimals}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(key, f);
  }
  return f;
}

/** "₹12,34,567.50" from "1234567.50" (or from minor units). */
export function formatMoney(
  amount: string | number,
  currency: CurrencyDisplay = DEFAULT_CURRENCY,
  decimals = 2,
): string {
  const minor = typeof amount === 'number' ? amount : toMinor(amount);
  if (minor === null) return '—';
  const sign = minor < 0 ? '-' : '';
  return `${sign}${currency.symbol}${numberFormat(groupingLocale(currency.unit), decimals).format(Math.abs(minor) / 100)}`;
}

export function formatNumber(value: number, decimals = 2, unit = 'INR'): string {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(groupingLocale(unit), decimals).format(value);
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/** "5.43M": volumes and other counts too long for a cell. */
export function formatCompact(value: number): string {
  return Number.isFinite(value) ? compact.format(value) : '—';
}

export function formatPrice(price: number | null | undefined, decimals = 2): string {
  return price === null || price === undefined || !Number.isFinite(price)
    ? '—'
    : numberFormat('en-US', decimals).format(price);
}

/** "+1.23" / "-0.40": a sign always, so colour never carries the meaning alone. */
export function formatChange(change: number, decimals = 2): string {
  if (!Number.isFinite(change)) return '—';
  const text = numberFormat('en-US', decimals).format(Math.abs(change));
  return `${change > 0 ? '+' : change < 0 ? '-' : ''}${text}`;
}

export function formatPercent(percent: number, decimals = 2): string {
  return Number.isFinite(percent) ? `${formatChange(percent, decimals)}%` : '—';
}

/** CSS class for a change: up, down or none. */
export function trendClass(change: number): string {
  return change > 0 ? 'up' : change < 0 ? 'down' : '';
}

export function formatDateTime(ms: number, locale = 'en-GB'): string {
  return new Date(ms).toLocaleString(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}

export function formatDate(ms: number, locale = 'en-GB'): string {
  return new Date(ms).toLocaleDateString(locale, { year: 'numeric', month: '2-digit', day: '2-digit' });
}

export function formatTime(ms: number, locale = 'en-GB'): string {
  return new Date(ms).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A message time: the clock alone for today, the date and clock otherwise. */
export function formatMessageTime(ms: number, locale = 'en-GB', now = Date.now()): string {
  const d = new Date(ms);
  return d.toDateString() === new Date(now).toDateString()
    ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : formatDateTime(ms, locale);
}
