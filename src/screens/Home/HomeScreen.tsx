import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { newsArticlePath, PATHS } from '../../paths';
import { formatMoney } from '../../shared/format';
import { InboxBell } from '../../shell/Inbox';
import { LanguageMenu } from '../../shell/LanguageMenu';
import { ServiceHeaderLink } from '../../shell/ServiceButton';
import { SimulatedMark } from '../../shell/SimulatedMark';
import { AsOf } from '../../ui/AsOf';
import { IconButton } from '../../ui/Button';
import { useDates } from '../../ui/dates';
import {
  IconBlocks,
  IconBond,
  IconChevron,
  IconExchange,
  IconFlag,
  IconHourglass,
  IconInstitution,
  IconPie,
  IconSearch,
  IconSettings,
} from '../../ui/icons';
import { ListStates, LoadError, Skeleton } from '../../ui/States';
import { useScreenHeading } from '../../ui/screenHeading';
import ui from '../../ui/ui.module.css';
import { IndexCard } from '../_parts/market/IndexCard';
import { HeroLines } from '../_parts/portfolio/Hero';
import { Allocation, TodayLine, ValueChartCard } from '../_parts/portfolio/PortfolioPanel';
import { usePortfolioSummary } from '../_parts/portfolio/parts';
import p from '../_parts/portfolio/portfolio.module.css';
import s from './home.module.css';
import { OnboardingChecklist } from './OnboardingChecklist';
import { HOME_NEWS, useHome } from './useHome';

/** Quick access (SPEC §2 Home): block trading, IPO, QIP, funds, forex, futures, treasury debt. */
const TILES = [
  { to: PATHS.blockTrading, key: 'home.tiles.block', icon: IconBlocks },
  { to: PATHS.ipo, key: 'home.tiles.ipo', icon: IconFlag },
  { to: PATHS.qip, key: 'home.tiles.qip', icon: IconInstitution },
  { to: PATHS.funds, key: 'home.tiles.funds', icon: IconPie },
  { to: PATHS.forex, key: 'home.tiles.forex', icon: IconExchange },
  { to: PATHS.futures, key: 'home.tiles.futures', icon: IconHourglass },
  { to: PATHS.treasuryDebt, key: 'home.tiles.treasury', icon: IconBond },
] as const;

export default function HomeScreen() {
  const { t } = useTranslation();
  const { date } = useDates();
  const navigate = useNavigate();
  const config = useConfig();
  const { currency } = config;
  const { info, categories, indices, cards, showNews, news, latest } = useHome();
  const portfolio = usePortfolioSummary();
  const hero = portfolio.data?.hero;
  const heading = useRef<HTMLHeadingElement>(null);
  useScreenHeading(heading, t('nav.home'));

  return (
    <main>
      <header className={s.top}>
        <h1 ref={heading} className={s.brand} tabIndex={-1}>
          <img src="/icons/icon.svg" alt="" width={28} height={28} />
          <span className={s.brandName}>Bourse</span>
        </h1>
        <div className={s.actions}>
          <IconButton label={t('home.search')} onClick={() => navigate(`${PATHS.markets}?search=`)}>
            <IconSearch />
          </IconButton>
          <InboxBell />
          {/* Until the configuration is known, the service button's place is kept (no shift). */}
          {!config.loaded && <span className={ui.iconButton} aria-hidden="true" />}
          <ServiceHeaderLink />
          <LanguageMenu />
          <IconButton label={t('home.settings')} onClick={() => navigate(PATHS.settings)}>
            <IconSettings />
          </IconButton>
        </div>
      </header>

      <section className={s.summary} aria-label={t('home.assets')}>
        {/* The account's number beside the total's label: the figures below are money only. */}
        <div className={s.summaryTop}>
          <span className={s.summaryLabel}>{t('home.totalAssets')}</span>
          <span className={s.accountNo}>
            {t('home.accountNo')} <strong className="num">{info.data?.no ?? '—'}</strong>
          </span>
        </div>
        {/* The total and the lines it is the sum of, from one answer of the server (DESIGN rule 8). */}
        <div className={`${s.summaryValue} num`} data-testid="total-assets">
          {hero ? (
            formatMoney(hero.total, currency)
          ) : portfolio.loading ? (
            <Skeleton width={180} height={32} />
          ) : (
            '—'
          )}
        </div>
        <TodayLine summary={portfolio.data} currency={currency} className={p.onAccent} />
        <HeroLines hero={hero} loading={portfolio.loading} />
        {/* Its line is kept before the first answer: the cards below do not move when it comes. */}
        <div className={s.summaryAsOfLine}>
          <AsOf
            at={portfolio.updatedAt}
            stale={portfolio.stale}
            every={portfolio.intervalMs}
            className={s.summaryAsOf}
          />
        </div>
      </section>

      <OnboardingChecklist />

      <div className={s.portfolio}>
        <ValueChartCard />
        <Allocation summary={portfolio.data} error={portfolio.error} />
      </div>

      <section className={`${ui.card} ${s.section}`} aria-labelledby="quick-access">
        <h2 id="quick-access" className={`${ui.sectionTitle} ${s.sectionTitle}`}>
          {t('home.quickAccess')}
        </h2>
        <div className={s.tiles}>
          {TILES.map((tile) => (
            <Link key={tile.to} to={tile.to} className={s.tile}>
              <span className={s.tileIcon}>
                <tile.icon size={24} />
              </span>
              {t(tile.key)}
            </Link>
          ))}
        </div>
      </section>

      <section className={`${s.section} ${s.flush}`} aria-labelledby="home-indices">
        <div className={s.sectionHead}>
          <h2 id="home-indices" className={`${ui.sectionTitle} ${s.sectionTitle}`}>
            {t('markets.home.indices')}
          </h2>
          <span className={s.sectionMarks}>
            <SimulatedMark />
            {indices.stale && <AsOf at={indices.updatedAt} stale />}
          </span>
        </div>
        {cards.length > 0 ? (
          <ul className={`${ui.plainList} ${s.indexGrid}`} aria-labelledby="home-indices">
            {cards.map(({ category, card }) => (
              <li key={category.category_code}>
                <IndexCard index={card} />
              </li>
            ))}
          </ul>
        ) : indices.error || categories.error ? (
          <LoadError
            error={indices.error ?? categories.error ?? 'errors.server'}
            onRetry={() => {
              categories.reload();
              indices.reload();
            }}
          />
        ) : indices.loading || categories.loading ? (
          <div className={`${ui.plainList} ${s.indexGrid}`} role="status" aria-label={t('common.loading')}>
            <Skeleton height={112} />
            <Skeleton height={112} />
            <Skeleton height={112} />
          </div>
        ) : null}
      </section>

      {showNews && (
        <section className={`${ui.card} ${s.section}`} aria-labelledby="home-news">
          <div className={s.sectionHead}>
            <h2 id="home-news" className={`${ui.sectionTitle} ${s.sectionTitle}`}>
              {t('markets.home.news')}
            </h2>
            <Link to={PATHS.news} className={ui.textLink}>
              {t('markets.home.allNews')}
            </Link>
          </div>
          <ListStates
            rows={latest}
            error={news.error}
            onRetry={news.reload}
            skeleton={{ rows: HOME_NEWS, height: 40, className: s.newsSkeleton }}
            empty={<p className={s.newsMeta}>{t('markets.home.noNews')}</p>}
          >
            {(items) => (
              <ul className={`${ui.plainList} ${s.news}`}>
                {items.map((item) => (
                  <li key={item.id}>
                    <Link to={newsArticlePath(item.id)} className={s.newsItem}>
                      <span className={s.newsText}>
                        <span className={s.newsTitle}>{item.title}</span>
                        <span className={s.newsMeta}>{date(item.created_at)}</span>
                      </span>
                      <IconChevron size={16} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </ListStates>
        </section>
      )}
    </main>
  );
}
