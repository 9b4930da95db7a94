import { useTranslation } from 'react-i18next';
import {
  type ExchangeTimeKind,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatExchangeSession,
  formatExchangeTime,
  formatMessageTime,
  formatTime,
} from '../shared/format';
import type { ScheduleId } from '../shared/market-hours';

/**
 * Dates and times in the interface language: the one way screens show them (the formats are
 * src/shared/format.ts's, one per language). An exchange's times — its hours, its prices' as-of,
 * its orders' times — are the exchange's, labelled ("09:15 IST"), whatever the phone's zone:
 * `exchange` and `session`.
 */
export function useDates() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    date: (ms: number) => formatDate(ms, language),
    dateTime: (ms: number) => formatDateTime(ms, language),
    time: (ms: number) => formatTime(ms, language),
    messageTime: (ms: number) => formatMessageTime(ms, language),
    range: (from: number, to: number) => formatDateRange(from, to, language),
    /** An exchange's time: "24/11/2026, 14:05 IST" (`dateTime`), "Mon 09:15 IST" (`weekdayClock`)… */
    exchange: (ms: number, schedule: ScheduleId, kind: ExchangeTimeKind = 'dateTime') =>
      formatExchangeTime(ms, schedule, kind, language),
    /** An opening or close: "15:30 IST" on the exchange's today, "Mon 09:15 IST" on another day. */
    session: (ms: number, schedule: ScheduleId, now: number) =>
      formatExchangeSession(ms, schedule, now, language),
  };
}
