import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { formatDate, formatMoney } from '../../shared/format';
import { LanguageMenu } from '../../shell/LanguageMenu';
import { SimulatedMark } from '../../shell/SimulatedMark';
import {
  AsOf,
  ErrorState,
  IconButton,
  IconChevron,
  IconSearch,
  IconService,
  IconSettings,
  Skeleton,
  ui,
} from '../../ui';
import { IndexCard } from '../markets/IndexCard';
import s from './home.module.css';
import { useHome } from './useHome';

/** Quick access (SPEC §2 Home): block trading, IPO, QIP, funds, forex, futures, treasury debt. */
const TILES = [
  { to: '/block-trading', key: 'home.tiles.block', mark: 'BT' },
  { to: '/ipo', key: 'home.tiles.ipo', mark: 'IPO' },
  { to: '/qip', key: 'home.tiles.qip', mark: 'QIP' },
  { to: '/fund-investment', key: 'home.tiles.funds', mark: 'F' },
  { to: '/forex', key: 'home.tiles.forex', mark: 'FX' },
  { to: '/futures', key: 'home.tiles.futures', mark: 'FUT' },
  { to: '/treasury-debt', key: 'home.tiles.treasury', mark: 'T' },
] as const;

export default function HomeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currency } = useConfig();
  const { info, categories, indices, cards, showNews, news, latest } = useHome();

  return (
    <main>
      <header className={s.top}>
        <span className={s.brand}>
          <img src="/icons/icon.svg" alt="" width={28} height={28} />
          Bourse
        </span>
        <div className={s.actions}>
          <IconButton label={t('home.search')} onClick={() => navigate('/markets?search=')}>
            <IconSearch />
          </IconButton>
          <IconButton label={t('home.service')} onClick={() => navigate('/customer-service')}>
            <IconService />
          </IconButton>
          <LanguageMenu />
          <IconButton label={t('home.settings')} onClick={() => navigate('/settings')}>
            <IconSettings />
          </IconButton>
        </div>
      </header>

      <section className={s.summary} aria-label={t('home.assets')}>
        <div className={s.summaryLabel}>{t('home.totalAssets')}</div>
        <div className={`${s.summaryValue} num`}>
          {info.data ? formatMoney(info.data.total, currency) : <Skeleton width={180} height={32} />}
        </div>
        <div className={s.summaryRow}>
          <span>
            {t('home.available')}
            <strong className="num">{info.data ? formatMoney(info.data.money, currency) : '—'}</strong>
          </span>
          <span style={{ textAlign: 'right' }}>
            {t('home.accountNo')}
            <strong className="num">{info.data?.no ?? '—'}</strong>
          </span>
        </div>
        {info.stale && <AsOf at={info.updatedAt} stale className={s.summaryAsOf} />}
      </section>

      <section className={`${ui.card} ${s.section}`} aria-labelledby="quick-access">
        <h2 id="quick-access" className={s.sectionTitle}>
          {t('home.quickAccess')}
        </h2>
        <div className={s.tiles}>
          {TILES.map((tile) => (
            <Link key={tile.to} to={tile.to} className={s.tile}>
              <span className={s.tileIcon} aria-hidden="true">
                {tile.mark}
              </span>
              {t(tile.key)}
            </Link>
          ))}
        </div>
      </section>

      <section className={s.section} aria-labelledby="home-indices" style={{ padding: 0 }}>
        <div className={s.sectionHead}>
          <h2 id="home-indices" className={s.sectionTitle}>
            {t('markets.home.indices')}
          </h2>
          <span className={s.sectionMarks}>
            <SimulatedMark />
            {indices.stale && <AsOf at={indices.updatedAt} stale />}
          </span>
        </div>
        {cards.length > 0 ? (
          <ul className={s.indexGrid} aria-labelledby="home-indices">
            {cards.map(({ category, card }) => (
              <li key={category.category_code}>
                <IndexCard index={card} />
              </li>
            ))}
          </ul>
        ) : indices.error || categories.error ? (
          <ErrorState
            message={t(indices.error ?? categories.error ?? 'errors.server')}
            onRetry={() => {
              categories.reload();
              indices.reload();
            }}
          />
        ) : indices.loading || categories.loading ? (
          <div className={s.indexGrid} role="status" aria-label={t('common.loading')}>
            <Skeleton height={112} />
            <Skeleton height={112} />
            <Skeleton height={112} />
          </div>
        ) : null}
      </section>

      {showNews && (
        <section className={`${ui.card} ${s.section}`} aria-labelledby="home-news">
          <div className={s.sectionHead}>
            <h2 id="home-news" className={s.sectionTitle}>
              {t('markets.home.news')}
            </h2>
            <Link to="/news" className={s.more}>
              {t('markets.home.allNews')}
            </Link>
          </div>
          {news.data ? (
            latest.length > 0 ? (
              <ul className={s.news}>
                {latest.map((item) => (
                  <li key={item.id}>
                    <Link to={`/news/${item.id}`} className={s.newsItem}>
                      <span className={s.newsText}>
                        <span className={s.newsTitle}>{item.title}</span>
                        <span className={s.newsMeta}>{formatDate(item.created_at)}</span>
                      </span>
                      <IconChevron size={16} />
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className={s.newsMeta}>{t('markets.home.noNews')}</p>
            )
          ) : news.error ? (
            <ErrorState message={t(news.error)} onRetry={news.reload} />
          ) : (
            <div role="status" aria-label={t('common.loading')} style={{ display: 'grid', gap: 10 }}>
              <Skeleton height={40} />
              <Skeleton height={40} />
              <Skeleton height={40} />
            </div>
          )}
        </section>
      )}
    </main>
  );
}
