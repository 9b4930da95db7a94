import { useTranslation } from 'react-i18next';
import { formatDate, formatDateRange, formatDateTime, formatMessageTime, formatTime } from '../shared/format';

/**
 * Dates and times in the interface language: the one way screens show them (the formats are
 * src/shared/format.ts's, one per language).
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
  };
}
