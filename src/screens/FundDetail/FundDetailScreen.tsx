import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { Fund, FundPosition } from '../../shared/contract/funds';
import { formatMoney, formatNumber, trendClass } from '../../shared/format';
import { OFFER_STATUS } from '../../shared/status';
import {
  EmptyState,
  HeaderLink,
  MoneyButton,
  ObjectStates,
  PageHeader,
  Skeleton,
  StaleLine,
  StatusChip,
  ui,
} from '../../ui';
import { FundBuyDialog } from '../_parts/funds/FundBuyDialog';
import { FundRedeemDialog } from '../_parts/funds/FundRedeemDialog';
import s from '../_parts/funds/funds.module.css';
import { categoryKey, returnText, signedPercent, useNavDate } from '../_parts/funds/labels';
import { FundDisclosure, Riskometer } from '../_parts/funds/Riskometer';
import inv from '../_parts/invest/invest.module.css';
import { SignedMoney, Stat } from '../_parts/invest/parts';
import { NavChart } from './NavChart';
import { useFundDetail } from './useFundDetail';

/**
 * A fund's page: the latest NAV and its change, the NAV history, yearly returns computed from it
 * with the disclosure beside them, the riskometer, the costs (expense ratio, exit load), the AMC,
 * the user's units, and Invest / Redeem at the next NAV.
 */
export default function FundDetailScreen() {
  const { t } = useTranslation();
  const d = useFundDetail();
  const title = d.fund?.name ?? t('fund.title');

  return (
    <main className={`${ui.page} ${s.withActions}`}>
      <PageHeader
        title={title}
        back={PATHS.funds}
        actions={<HeaderLink to={PATHS.fundOrders} label={t('fund.orders')} />}
      />
      {d.missing ? (
        <EmptyState title={t('errors.notFound')} />
      ) : (
        <ObjectStates
          data={d.fund}
          error={d.list.error}
          onRetry={d.list.reload}
          loading={
            <div className={s.skeleton}>
              <Skeleton height={320} />
            </div>
          }
        >
          {(fund) => (
            <>
              <StaleLine of={d.list} />
              <NavHero fund={fund} />
              <StaleLine of={d.nav} />
              <NavChart nav={d.nav.data} range={d.range} onRange={d.setRange} />
              {d.position && <Holding position={d.position} stale={d.positions} />}
              <Returns fund={fund} />
              <Facts fund={fund} />
              <div className={s.actions} data-bottom-bar="">
                <MoneyButton
                  variant="secondary"
                  disabled={!d.position || d.position.free_units === '0.000'}
                  onClick={() => d.setSheet('redeem')}
                >
                  {t('fund.redeem')}
                </MoneyButton>
                <MoneyButton
                  disabled={fund.status !== OFFER_STATUS.open}
                  onClick={() => d.setSheet('invest')}
                >
                  {t('fund.invest')}
                </MoneyButton>
              </div>
              {d.sheet === 'invest' && (
                <FundBuyDialog fund={fund} onClose={() => d.setSheet(null)} onDone={d.done} />
              )}
              {d.sheet === 'redeem' && d.position && (
                <FundRedeemDialog
                  fund={fund}
                  position={d.position}
                  onClose={() => d.setSheet(null)}
                  onDone={d.done}
                />
              )}
            </>
          )}
        </ObjectStates>
      )}
    </main>
  );
}

function NavHero({ fund }: { fund: Fund }) {
  const { t } = useTranslation();
  const navDate = useNavDate();
  return (
    <section className={s.hero} aria-label={t('fund.nav')}>
      <div className={s.heroChips}>
        <StatusChip tone="muted">{t(categoryKey(fund.category))}</StatusChip>
        <span className={s.amc}>{fund.manager}</span>
      </div>
      <p className={s.heroNav}>
        <span className={s.heroLabel}>{t('fund.navOn', { date: navDate(fund.nav_date) })}</span>
        <span className={`${s.heroValue} num`} data-testid="fund-nav">
          {formatNumber(Number(fund.nav), 4)}
        </span>
        {fund.nav_change !== null && (
          <span className={`${s.navChange} ${trendClass(Number(fund.nav_change))} num`}>
            {signedPercent(fund.nav_change)}
          </span>
        )}
      </p>
    </section>
  );
}

/** Yearly returns from the NAV history, with the disclosure beside them. */
function Returns({ fund }: { fund: Fund }) {
  const { t } = useTranslation();
  const notYet = t('fund.notYet');
  return (
    <section className={s.section} aria-label={t('fund.y1')}>
      <dl className={`${ui.statRow} ${inv.stats} ${inv.stats3}`}>
        <Stat label={t('fund.y1')}>
          <span className="num" data-testid="fund-y1">
            {returnText(fund.returns.y1, notYet)}
          </span>
        </Stat>
        <Stat label={t('fund.y3')}>
          <span className="num">{returnText(fund.returns.y3, notYet)}</span>
        </Stat>
        <Stat label={t('fund.sinceLaunch')}>
          <span className="num">{returnText(fund.returns.since_launch, notYet)}</span>
        </Stat>
      </dl>
      {fund.min_return !== null && fund.max_return !== null && (
        <p className={s.rolling}>
          {t('fund.rolling')}:{' '}
          <span className="num">
            {t('fund.rollingValue', {
              min: formatNumber(fund.min_return, 2),
              max: formatNumber(fund.max_return, 2),
            })}
          </span>
        </p>
      )}
      <FundDisclosure />
    </section>
  );
}

function Facts({ fund }: { fund: Fund }) {
  const { t } = useTranslation();
  const config = useConfig();
  const navDate = useNavDate();
  return (
    <section className={s.section} aria-label={t('fund.riskometer')}>
      <Riskometer risk={fund.risk} />
      <dl className={s.facts2}>
        <Stat label={t('fund.expenseRatio')}>
          {t('fund.expenseValue', { pct: formatNumber(Number(fund.expense_ratio), 2) })}
        </Stat>
        <Stat label={t('fund.exitLoad')}>
          {fund.exit_load
            ? t('fund.exitLoadValue', { pct: fund.exit_load.percent, count: fund.exit_load.days })
            : t('fund.exitLoadNone')}
        </Stat>
        <Stat label={t('fund.minimum')}>{formatMoney(fund.amount, config.currency, 0)}</Stat>
        <Stat label={t('fund.launched')}>{navDate(fund.launched_on)}</Stat>
        <Stat label={t('fund.amc')}>{fund.manager ?? '—'}</Stat>
      </dl>
    </section>
  );
}

function Holding({
  position,
  stale,
}: {
  position: FundPosition;
  stale: { stale: boolean; updatedAt: number | null };
}) {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <section className={s.yours} aria-label={t('fund.holding')} data-testid="fund-position">
      <h2 className={s.yoursTitle}>{t('fund.holding')}</h2>
      <StaleLine of={stale} />
      <dl className={`${ui.statRow} ${inv.stats}`}>
        <Stat label={t('fund.units')}>
          <span className="num">{formatNumber(Number(position.units), 3)}</span>
        </Stat>
        <Stat label={t('fund.value')} strong>
          {formatMoney(position.value, config.currency)}
        </Stat>
        <Stat label={t('fund.invested')}>{formatMoney(position.invested, config.currency)}</Stat>
        <Stat label={t('fund.gain')}>
          <SignedMoney amount={position.gain} currency={config.currency} />
        </Stat>
      </dl>
      {position.pending !== '0.00' && (
        <p className={s.pendingLine}>
          {t('fund.pendingLine', { amount: formatMoney(position.pending, config.currency) })}
        </p>
      )}
    </section>
  );
}
