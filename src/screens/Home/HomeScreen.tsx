import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { formatMoney } from '../../shared/format';
import { LanguageMenu } from '../../shell/LanguageMenu';
import { AsOf, IconButton, IconSearch, IconService, IconSettings, Skeleton, ui } from '../../ui';
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
  const { info } = useHome();

  return (
    <main>
      <header className={s.top}>
        <span className={s.brand}>
          <img src="/icons/icon.svg" alt="" width={28} height={28} />
          Bourse
        </span>
        <div className={s.actions}>
          <IconButton label={t('home.search')} onClick={() => navigate('/markets')}>
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
    </main>
  );
}
