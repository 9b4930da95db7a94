import { useTranslation } from 'react-i18next';
import type { Fund, FundOrder } from '../../../shared/contract/funds';
import { formatDate, formatNumber } from '../../../shared/format';
import { navDateMs } from '../../../shared/funds';
import type { Tone } from '../../../ui';

/** How the fund screens name and format what the server sends (src/shared/contract/funds.ts). */

/** A fund order's chip: what its side and status mean together. */
export function fundOrderStatus(order: Pick<FundOrder, 'side' | 'status'>): { key: string; tone: Tone } {
  if (order.status === 'active') return { key: 'fund.status.pending', tone: 'info' };
  if (order.status === 'cancelled') return { key: 'fund.status.cancelled', tone: 'muted' };
  if (order.status === 'completed') {
    if (order.side === 'buy') return { key: 'fund.status.allotted', tone: 'success' };
    if (order.side === 'redeem') return { key: 'fund.status.redeemed', tone: 'success' };
    if (order.side === 'term') return { key: 'fund.status.matured', tone: 'muted' };
  }
  return { key: 'fund.status.unknown', tone: 'warn' };
}

/** The riskometer level's words; a level the app does not know reads as not stated. */
export function riskKey(risk: number | null): string {
  return risk !== null && risk >= 1 && risk <= 6 ? `fund.riskLevel.${risk}` : 'fund.riskUnrated';
}

export const categoryKey = (category: Fund['category']) => `fund.category.${category}`;

/** A server percent ("6.92", "-0.48") in the reader's digits with its sign: "+6.92%". */
export function signedPercent(text: string): string {
  const n = Number(text);
  return `${n > 0 ? '+' : n < 0 ? '−' : ''}${formatNumber(Math.abs(n), 2)}%`;
}

/** A yearly return, "6.92%" (signed only when negative); null: the fund is younger than the span. */
export function returnText(text: string | null, notYet: string): string {
  if (text === null) return notYet;
  const n = Number(text);
  return `${n < 0 ? '−' : ''}${formatNumber(Math.abs(n), 2)}%`;
}

/** NAV dates (Indian calendar days, "2026-11-25") in the reader's language. */
export function useNavDate(): (date: string) => string {
  const { i18n } = useTranslation();
  return (date) => formatDate(navDateMs(date), i18n.language, 'NSE');
}
