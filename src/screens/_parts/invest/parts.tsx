import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Watched } from '../../../api/hooks';
import { type AppConfig, currencyFor } from '../../../api/useConfig';
import type { UserInfo } from '../../../shared/contract/account';
import { type CurrencyDisplay, formatMoney, formatPrice, trendClass } from '../../../shared/format';
import { toMinor } from '../../../shared/money';
import {
  AsOf,
  EmptyState,
  FieldFrame,
  fieldDescribedBy,
  HeaderLink,
  ListStates,
  PageHeader,
  Skeleton,
  StaleLine,
  ui,
} from '../../../ui';
import s from './invest.module.css';

/** Pieces the invest screens share: balance strip, stats, steppers and prices. */

/** One label/value pair of a card's <dl>. */
export function Stat({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={s.stat}>
      <dt className={s.statLabel}>{label}</dt>
      <dd className={`${s.statValue} ${strong ? s.strong : ''}`}>{children}</dd>
    </div>
  );
}

export function SummaryRow({
  label,
  children,
  total,
}: {
  label: string;
  children: ReactNode;
  total?: boolean;
}) {
  return (
    <div className={`${s.summaryRow} ${total ? s.summaryTotal : ''}`}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * The frame of a product list (IPO, funds): the header with its orders link, the available
 * balance, the list's as-of time when it is not live, and its loading / error / empty states.
 * `after` holds what opens over the list (the buy dialogs).
 */
export function ProductList<T>({
  title,
  orders,
  info,
  currency,
  list,
  skeletonHeight,
  empty,
  children,
  after,
}: {
  title: string;
  orders: { to: string; label: string };
  info: Watched<UserInfo>;
  currency: CurrencyDisplay;
  list: Watched<{ rows: T[] }> & { reload: () => void };
  skeletonHeight: number;
  empty: string;
  children: (rows: readonly T[]) => ReactNode;
  after?: ReactNode;
}) {
  return (
    <main className={ui.page}>
      <PageHeader title={title} actions={<HeaderLink to={orders.to} label={orders.label} />} />
      <BalanceStrip info={info} currency={currency} />
      <StaleLine of={list} />
      <ListStates
        rows={list.data?.rows}
        error={list.error}
        onRetry={list.reload}
        skeleton={{ rows: 4, height: skeletonHeight }}
        empty={<EmptyState title={empty} />}
      >
        {children}
      </ListStates>
      {after}
    </main>
  );
}

/** Available balance from the polled user info, with its as-of time when it is not live. */
export function BalanceStrip({ info, currency }: { info: Watched<UserInfo>; currency: CurrencyDisplay }) {
  const { t } = useTranslation();
  return (
    <section className={s.balance} aria-label={t('ipo.available')}>
      <span className={s.balanceLabel}>{t('ipo.available')}</span>
      <span className={s.balanceSide}>
        <strong className={`${s.balanceValue} num`} data-testid="available-balance">
          {info.data ? formatMoney(info.data.money, currency) : <Skeleton width={120} height={22} />}
        </strong>
        {info.stale && <AsOf at={info.updatedAt} stale />}
      </span>
    </section>
  );
}

/** A per-unit price in its own region's currency ("$21.12", "₹370.00"). */
export function regionPrice(config: AppConfig, region: string, price: number, decimals = 2): string {
  return `${currencyFor(config, region).symbol}${formatPrice(price, decimals)}`;
}

/** Profit/loss with a sign and an arrow, so colour never carries the meaning alone. */
export function SignedMoney({ amount, currency }: { amount: string; currency: CurrencyDisplay }) {
  const minor = toMinor(amount) ?? 0;
  const arrow = minor > 0 ? '▲ ' : minor < 0 ? '▼ ' : '';
  return (
    <span className={`${trendClass(minor)} num`}>
      <span aria-hidden="true">{arrow}</span>
      {minor > 0 ? '+' : ''}
      {formatMoney(amount, currency)}
    </span>
  );
}

/**
 * A quantity field with − and + buttons. The input takes digits only; what the steps and the
 * bounds do is the caller's (IPO: lots of 100 clamped to min..max; block: at least the minimum).
 */
export function QuantityStepper({
  label,
  value,
  onChange,
  onBlur,
  onDecrease,
  onIncrease,
  decreaseDisabled,
  increaseDisabled,
  hint,
  error,
  aside,
}: {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  onBlur?: () => void;
  onDecrease: () => void;
  onIncrease: () => void;
  decreaseDisabled?: boolean;
  increaseDisabled?: boolean;
  hint?: ReactNode;
  error?: string | null;
  aside?: ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    // The kit's frame (label, hint and error, the invalid mark) around the − input + box.
    <FieldFrame id={id} label={label} aside={aside} hint={hint} error={error}>
      <div className={`${ui.control} ${s.stepper}`}>
        <button
          type="button"
          className={s.stepBtn}
          aria-label={t('ipo.decrease')}
          onClick={onDecrease}
          disabled={decreaseDisabled}
        >
          −
        </button>
        <input
          id={id}
          className={s.stepInput}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={8}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(id, error, hint)}
          onChange={(e) => onChange(e.target.value.replace(/\D+/g, '').slice(0, 8))}
          onBlur={onBlur}
        />
        <button
          type="button"
          className={s.stepBtn}
          aria-label={t('ipo.increase')}
          onClick={onIncrease}
          disabled={increaseDisabled}
        >
          +
        </button>
      </div>
    </FieldFrame>
  );
}
