import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS, stockPath } from '../../paths';
import type { StockRow } from '../../shared/contract/market';
import { formatMoney, formatPercent, formatPrice, trendClass } from '../../shared/format';
import { ACCOUNT_MARKET_LIMIT, displayCode } from '../../shared/rules';
import { ServiceHeaderLink } from '../../shell/ServiceButton';
import {
  AsOf,
  IconButton,
  IconCoins,
  IconDeposit,
  IconHistory,
  IconReceipt,
  IconSettings,
  IconWithdraw,
  ListStates,
  LoadError,
  PageHeader,
  Skeleton,
  StaleLine,
  ui,
} from '../../ui';
import { marketName } from '../_parts/market/names';
import { HeroLines } from '../_parts/portfolio/Hero';
import { Allocation, TodayLine } from '../_parts/portfolio/PortfolioPanel';
import { usePortfolioSummary } from '../_parts/portfolio/parts';
import p from '../_parts/portfolio/portfolio.module.css';
import s from '../_parts/wallet/wallet.module.css';
import { useAccount } from './useAccount';

const ACTIONS: Array<{ to: string; key: string; Icon: ComponentType<{ size?: number }> }> = [
  { to: PATHS.recharge, key: 'wallet.account.recharge', Icon: IconDeposit },
  { to: PATHS.withdraw, key: 'wallet.account.withdraw', Icon: IconWithdraw },
  { to: PATHS.accountChanges, key: 'wallet.account.details', Icon: IconReceipt },
  { to: PATHS.rechargeRecords, key: 'wallet.account.records', Icon: IconHistory },
  { to: PATHS.loan, key: 'wallet.account.loans', Icon: IconCoins },
];

/** Account (SPEC §2): total assets, available balance, the wallet's actions, three markets. */
export default function AccountScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currency } = useConfig();
  const { info, markets } = useAccount();
  const portfolio = usePortfolioSummary();
  const hero = portfolio.data?.hero;
  const data = info.data;
  const money = (v: string | undefined) => (v === undefined ? '—' : formatMoney(v, currency));

  return (
    <main className={ui.page}>
      <PageHeader
        title={t('wallet.account.title')}
        noBack
        actions={
          <>
            <ServiceHeaderLink />
            <IconButton label={t('wallet.account.settings')} onClick={() => navigate(PATHS.settings)}>
              <IconSettings />
            </IconButton>
          </>
        }
      />
      <section className={s.hero} aria-label={t('wallet.account.assets')}>
        <span className={s.heroLabel}>{t('wallet.account.totalAssets')}</span>
        {/* The total and the lines it is the sum of, from one answer of the server (DESIGN rule 8). */}
        <span className={s.heroValue} data-testid="total-assets">
          {hero ? money(hero.total) : portfolio.loading ? <Skeleton width={180} height={32} /> : '—'}
        </span>
        <TodayLine summary={portfolio.data} currency={currency} className={p.onAccent} />
        <HeroLines hero={hero} loading={portfolio.loading} />
        <dl className={s.heroGrid}>
          <div>
            <dt>{t('wallet.account.accountNo')}</dt>
            <dd>{data?.no ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('wallet.account.phone')}</dt>
            <dd>{data?.user ?? '—'}</dd>
          </div>
        </dl>
        <AsOf
          at={portfolio.updatedAt}
          stale={portfolio.stale}
          every={portfolio.intervalMs}
          className={s.heroAsOf}
        />
      </section>
      {portfolio.error && !hero && <LoadError error={portfolio.error} onRetry={portfolio.reload} />}

      <nav className={s.actions} aria-label={t('wallet.account.actions')}>
        {ACTIONS.map(({ to, key, Icon }) => (
          <Link key={to} to={to} className={s.action}>
            <span className={s.actionIcon} aria-hidden="true">
              <Icon size={22} />
            </span>
            {t(key)}
          </Link>
        ))}
      </nav>

      <Allocation summary={portfolio.data} error={portfolio.error} />
      <p className={p.linkLine}>
        <Link to={PATHS.statement} className={ui.textLink}>
          {t('portfolio.statementLink')}
        </Link>
      </p>

      <section className={s.section} aria-labelledby="account-markets">
        <div className={s.sectionHead}>
          <h2 id="account-markets" className={ui.sectionTitle}>
            {t('wallet.account.markets')}
          </h2>
          <Link to={PATHS.markets} className={ui.textLink}>
            {t('wallet.account.more')}
          </Link>
        </div>
        <StaleLine of={markets} />
        <ListStates
          rows={markets.data?.rows}
          error={markets.error}
          onRetry={markets.reload}
          skeleton={{ rows: ACCOUNT_MARKET_LIMIT, height: 44 }}
          empty={<p className={`${s.rowSub} ${s.padded}`}>{t('wallet.account.noMarkets')}</p>}
        >
          {(rows) => (
            <ul className={`${ui.plainList} ${s.rows}`}>
              {rows.slice(0, ACCOUNT_MARKET_LIMIT).map((row) => (
                <MarketRow key={row.stock} row={row} />
              ))}
            </ul>
          )}
        </ListStates>
      </section>
    </main>
  );
}

function MarketRow({ row }: { row: StockRow }) {
  const { t } = useTranslation();
  const trend = trendClass(row.percent_change);
  const pill = trend === 'up' ? s.pillUp : trend === 'down' ? s.pillDown : '';
  return (
    <li>
      <Link to={stockPath(row.stock, row.name)} className={`${s.row} ${s.rowReflow}`}>
        <span className={s.rowMain}>
          <span className={`${ui.name} ${s.rowTitle}`}>{row.name}</span>
          <span className={s.rowSub}>
            {displayCode(row.stock)} · {marketName(t, row.market, row.market_name)}
          </span>
        </span>
        <span className={`${s.rowSide} ${s.rowSideInline}`}>
          <span className={`${s.price} ${trend}`}>{formatPrice(row.prasent, row.decimals)}</span>
          <span className={`${s.pill} ${pill}`}>{formatPercent(row.percent_change)}</span>
        </span>
      </Link>
    </li>
  );
}
