import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { Fund } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { toMinor } from '../../shared/money';
import { OFFER_STATUS } from '../../shared/status';
import { ConfirmDialog, MoneyButton, StatusChip, ui } from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { ProductList, Stat, SummaryRow } from '../_parts/invest/parts';
import { useFundInvestment } from './useFundInvestment';

/** A server's exact two-decimal percent ("10.43") in the reader's digits, as written (no float maths). */
const percent = (text: string) => formatNumber(Number(text), 2);

/** Fund investment (SPEC §2): products, buy with confirmation, link to orders, a no-more note. */
export default function FundInvestmentScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const { list, info, confirming, setConfirming, purchasing, inFlight, buy, call } = useFundInvestment();

  return (
    <ProductList
      title={t('fund.title')}
      orders={{ to: PATHS.fundOrders, label: t('fund.orders') }}
      info={info}
      currency={config.currency}
      list={list}
      skeletonHeight={170}
      empty={t('fund.empty')}
      after={
        <ConfirmDialog
          open={confirming !== null}
          title={t('fund.confirmTitle', { name: confirming?.name ?? '' })}
          message={confirming && <FundConfirmation fund={confirming} />}
          confirmLabel={t('fund.invest')}
          money={call}
          onCancel={() => setConfirming(null)}
          onConfirm={() => confirming && void buy(confirming)}
        />
      }
    >
      {(rows) => (
        <>
          <ul className={s.list} aria-label={t('fund.title')}>
            {rows.map((fund) => (
              <FundCard
                key={fund.id}
                fund={fund}
                busy={inFlight && purchasing === fund.id}
                disabled={purchasing !== null}
                onBuy={() => setConfirming(fund)}
              />
            ))}
          </ul>
          <p className={s.note}>{t('fund.noMore')}</p>
        </>
      )}
    </ProductList>
  );
}

function FundCard({
  fund,
  busy,
  disabled,
  onBuy,
}: {
  fund: Fund;
  busy: boolean;
  disabled: boolean;
  onBuy: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const sold = toMinor(fund.sold_amount) ?? 0;
  const issued = toMinor(fund.issue_amount) ?? 0;
  const share = issued > 0 ? Math.min(100, (sold / issued) * 100) : 0;
  const soldOut = issued > 0 && sold >= issued;
  return (
    <li className={s.card}>
      <div className={s.cardTop}>
        <h2 className={s.name}>{fund.name}</h2>
        <StatusChip tone="info">{t('fund.days', { count: fund.investment_period })}</StatusChip>
      </div>
      <div className={`${s.cardTop} ${s.bottomAligned}`}>
        <div className={s.titleBlock}>
          <span className={`${s.returnRange} num`}>
            {formatNumber(fund.min_return)}% – {formatNumber(fund.max_return)}%
          </span>
          <span className={s.returnLabel}>{t('fund.returnRange')}</span>
          {/* Issue 30 §3: the yearly rate beside the period's, computed on the server. */}
          <span className={`${s.returnPa} num`} data-testid="fund-pa">
            {t('fund.perYear', { min: percent(fund.return_pa.min), max: percent(fund.return_pa.max) })}
          </span>
          <span className={s.returnLabel}>{t('watch.fund.projected')}</span>
        </div>
        <dl className={`${ui.statRow} ${s.stats} ${s.statsEnd}`}>
          <Stat label={t('fund.amount')} strong>
            {formatMoney(fund.amount, config.currency)}
          </Stat>
        </dl>
      </div>
      <dl className={`${ui.statRow} ${s.stats}`}>
        <Stat label={t('watch.fund.manager')}>{fund.manager ?? t('watch.fund.notRated')}</Stat>
        <Stat label={t('watch.fund.risk')}>
          {fund.risk === null ? t('watch.fund.notRated') : t(`watch.fund.riskLevel.${fund.risk}`)}
        </Stat>
        <Stat label={t('fund.maturity')}>
          {t('fund.maturityShort', { pct: percent(fund.expected_return) })}
        </Stat>
      </dl>
      {sold > 0 && (
        <div className={s.progress}>
          <div
            className={s.progressTrack}
            role="progressbar"
            aria-label={t('fund.soldLabel')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share)}
          >
            <div className={s.progressBar} style={{ width: `${share}%` }} />
          </div>
          <div className={s.progressLabel}>
            <span>{t('fund.sold', { pct: formatNumber(share, 1) })}</span>
            <span>
              {formatMoney(fund.sold_amount, config.currency, 0)} /{' '}
              {formatMoney(fund.issue_amount, config.currency, 0)}
            </span>
          </div>
        </div>
      )}
      <MoneyButton
        block
        onClick={onBuy}
        loading={busy}
        disabled={disabled || soldOut || fund.status !== OFFER_STATUS.open}
        aria-label={t('fund.buyFor', { name: fund.name })}
      >
        {soldOut ? t('fund.soldOut') : t('fund.buy')}
      </MoneyButton>
    </li>
  );
}

function FundConfirmation({ fund }: { fund: Fund }) {
  const { t } = useTranslation();
  const config = useConfig();
  const amount = toMinor(fund.amount) ?? 0;
  return (
    <>
      <dl className={s.summary}>
        <SummaryRow label={t('fund.amount')}>{formatMoney(fund.amount, config.currency)}</SummaryRow>
        <SummaryRow label={t('fund.period')}>{t('fund.days', { count: fund.investment_period })}</SummaryRow>
        <SummaryRow label={t('fund.returnRange')}>
          {formatNumber(fund.min_return)}% – {formatNumber(fund.max_return)}% (
          {t('fund.perYear', { min: percent(fund.return_pa.min), max: percent(fund.return_pa.max) })})
        </SummaryRow>
        <SummaryRow label={t('fund.paidAtMaturity')}>
          {formatMoney(amount + (toMinor(fund.expected_profit) ?? 0), config.currency)} ·{' '}
          {t('fund.expected', {
            pct: percent(fund.expected_return),
            pa: percent(fund.expected_return_pa),
          })}
        </SummaryRow>
      </dl>
      <p className={s.note}>
        {t('fund.maturityNote', { days: t('fund.days', { count: fund.investment_period }) })}
      </p>
    </>
  );
}
