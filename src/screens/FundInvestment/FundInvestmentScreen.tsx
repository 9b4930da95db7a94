import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { fundPath, PATHS } from '../../paths';
import type { Fund, FundPosition, FundPositions } from '../../shared/contract/funds';
import { formatMoney, formatNumber, trendClass } from '../../shared/format';
import { OFFER_STATUS } from '../../shared/status';
import { MoneyButton, StaleLine, StatusChip, ui } from '../../ui';
import { FundBuyDialog } from '../_parts/funds/FundBuyDialog';
import s from '../_parts/funds/funds.module.css';
import { categoryKey, returnText, riskKey, signedPercent, useNavDate } from '../_parts/funds/labels';
import { FundDisclosure } from '../_parts/funds/Riskometer';
import inv from '../_parts/invest/invest.module.css';
import { ProductList, SignedMoney, Stat } from '../_parts/invest/parts';
import { useFundInvestment } from './useFundInvestment';

/**
 * Mutual funds (SPEC §2 "Fund investment"): each scheme at its latest NAV with its yearly returns
 * from the NAV history, category and riskometer, the user's units in it, Invest (a purchase at
 * the next NAV), a link to the fund's page and to the orders, and the disclosure beside the returns.
 */
export default function FundInvestmentScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const { list, info, positions, positionOf, buying, setBuying, cooling, placed } = useFundInvestment();

  return (
    <ProductList
      title={t('fund.title')}
      orders={{ to: PATHS.fundOrders, label: t('fund.orders') }}
      info={info}
      currency={config.currency}
      list={list}
      skeletonHeight={170}
      empty={t('fund.empty')}
      after={buying && <FundBuyDialog fund={buying} onClose={() => setBuying(null)} onDone={placed} />}
    >
      {(rows) => (
        <>
          {positions.data && positions.data.rows.length > 0 && (
            <YourFunds totals={positions.data} stale={positions} />
          )}
          <FundDisclosure />
          <ul className={inv.list} aria-label={t('fund.title')}>
            {rows.map((fund) => (
              <FundCard
                key={fund.id}
                fund={fund}
                position={positionOf(fund.id)}
                disabled={cooling || buying !== null}
                onInvest={() => setBuying(fund)}
              />
            ))}
          </ul>
          <p className={inv.note}>{t('fund.noMore')}</p>
        </>
      )}
    </ProductList>
  );
}

/** The user's money in funds: units at the latest NAVs, what they cost, and purchases awaiting a NAV. */
function YourFunds({
  totals,
  stale,
}: {
  totals: FundPositions;
  stale: { stale: boolean; updatedAt: number | null };
}) {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <section className={s.yours} aria-label={t('fund.yours')} data-testid="fund-totals">
      <h2 className={s.yoursTitle}>{t('fund.yours')}</h2>
      <StaleLine of={stale} />
      <dl className={`${ui.statRow} ${inv.stats} ${inv.stats3}`}>
        <Stat label={t('fund.value')} strong>
          {formatMoney(totals.value, config.currency)}
        </Stat>
        <Stat label={t('fund.invested')}>{formatMoney(totals.invested, config.currency)}</Stat>
        <Stat label={t('fund.gain')}>
          <SignedMoney amount={totals.gain} currency={config.currency} />
        </Stat>
      </dl>
      {totals.pending !== '0.00' && (
        <p className={s.pendingLine}>
          {t('fund.pendingLine', { amount: formatMoney(totals.pending, config.currency) })}
        </p>
      )}
    </section>
  );
}

function FundCard({
  fund,
  position,
  disabled,
  onInvest,
}: {
  fund: Fund;
  position: FundPosition | undefined;
  disabled: boolean;
  onInvest: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const navDate = useNavDate();
  const notYet = t('fund.notYet');
  return (
    <li className={inv.card} data-fund={fund.id}>
      <div className={inv.cardTop}>
        <div className={inv.titleBlock}>
          <h2 className={inv.name}>
            <Link
              className={s.nameLink}
              to={fundPath(fund.id)}
              aria-label={t('fund.details', { name: fund.name })}
            >
              {fund.name}
            </Link>
          </h2>
          <span className={s.amc}>{fund.manager}</span>
        </div>
        <StatusChip tone="muted">{t(categoryKey(fund.category))}</StatusChip>
      </div>
      <dl className={`${ui.statRow} ${inv.stats} ${inv.stats3}`}>
        <Stat label={t('fund.nav')}>
          <span className="num">{formatNumber(Number(fund.nav), 4)}</span>
          {fund.nav_change !== null && (
            <span className={`${s.navChange} ${trendClass(Number(fund.nav_change))} num`}>
              {signedPercent(fund.nav_change)}
            </span>
          )}
        </Stat>
        <Stat label={t('fund.y1')}>
          <span className="num">{returnText(fund.returns.y1, notYet)}</span>
        </Stat>
        <Stat label={t('fund.y3')}>
          <span className="num">{returnText(fund.returns.y3, notYet)}</span>
        </Stat>
      </dl>
      <p className={s.facts}>
        <span>{t('fund.navOf', { date: navDate(fund.nav_date) })}</span>
        <span>{t(riskKey(fund.risk))}</span>
        <span>
          {t('fund.expenseRatio')} {formatNumber(Number(fund.expense_ratio), 2)}%
        </span>
        <span>
          {t('fund.minimum')} {formatMoney(fund.amount, config.currency, 0)}
        </span>
      </p>
      {position && (
        <p className={s.holdingLine} data-testid="fund-holding">
          {position.units !== '0.000' &&
            t('fund.holdingLine', {
              units: formatNumber(Number(position.units), 3),
              value: formatMoney(position.value, config.currency),
            })}
          {position.pending !== '0.00' && (
            <span>{t('fund.pendingLine', { amount: formatMoney(position.pending, config.currency) })}</span>
          )}
        </p>
      )}
      <MoneyButton
        block
        onClick={onInvest}
        disabled={disabled || fund.status !== OFFER_STATUS.open}
        aria-label={t('fund.investIn', { name: fund.name })}
      >
        {t('fund.invest')}
      </MoneyButton>
    </li>
  );
}
