import { useTranslation } from 'react-i18next';
import { formatDateTime, formatExchangeAsOf, formatTime } from '../shared/format';
import type { ScheduleId } from '../shared/market-hours';
import { useNow, useServerNow } from './clock';
import s from './core.module.css';
import { freshness } from './freshness';
import ui from './ui.module.css';

/**
 * "as of 14:32" today, with the date on another day; a price of an exchange (`schedule`) in the
 * exchange's time, labelled: "as of 14:32:05 IST".
 */
export function asOfText(at: number, now = Date.now(), language?: string, schedule?: ScheduleId): string {
  if (schedule) return formatExchangeAsOf(at, schedule, now, language);
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return sameDay ? formatTime(at, language) : formatDateTime(at, language);
}

/**
 * The as-of time of data on screen (DESIGN rule 7), in tiers (src/ui/freshness.ts): calm while
 * live, visible when delayed, strong when stale ("Last known"), and "Closed · as of 15:30" for a
 * price of a closed market. `every` is the data's poll interval, `fetchedAt` when it was fetched
 * (when `at` is a price's own time), `schedule` the instrument's market hours (its time is then the
 * exchange's, labelled: "as of 14:32:05 IST"). Renders nothing
 * when the time is unknown.
 */
export function AsOf({
  at,
  stale = false,
  every,
  fetchedAt,
  schedule,
  zone,
  className,
}: {
  at: number | null | undefined;
  stale?: boolean;
  every?: number;
  fetchedAt?: number | null;
  schedule?: ScheduleId;
  /** The zone the time is told in when it is not the schedule's (the USD rate's, in the account's: IST). */
  zone?: ScheduleId;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const serverNow = useServerNow();
  if (!at) return null;
  const time = asOfText(at, serverNow, i18n.language, zone ?? schedule);
  const tier = freshness({ at, fetchedAt, now, serverNow, intervalMs: every, stale, schedule });
  const stamp = <time dateTime={new Date(at).toISOString()}>{t('core.asOf', { time })}</time>;
  return (
    <span
      className={`${s.asOf} ${s[`tier_${tier}`] ?? ''} ${className ?? ''}`}
      data-tier={tier}
      data-stale={tier === 'stale' || undefined}
    >
      {tier === 'closed' ? (
        <time dateTime={new Date(at).toISOString()}>{t('core.tier.closed', { time })}</time>
      ) : (
        <>
          {tier === 'stale' && <span className={s.staleLabel}>{t('core.stale')}</span>}
          {tier === 'delayed' && <span className={s.delayedLabel}>{t('core.tier.delayed')}</span>}
          {stamp}
        </>
      )}
    </span>
  );
}

/** The as-of line above a list or a card, shown only while what it labels is not live. */
export function StaleLine({ of }: { of: { stale: boolean; updatedAt: number | null } }) {
  if (!of.stale) return null;
  return (
    <div className={ui.asOfLine}>
      <AsOf at={of.updatedAt} stale />
    </div>
  );
}
