import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { PATHS } from '../paths';
import { IconAccount, IconHome, IconMarkets, IconStar, IconTrade } from '../ui/icons';
import s from './shell.module.css';

const ITEMS = [
  { to: PATHS.home, key: 'nav.home', Icon: IconHome },
  { to: PATHS.markets, key: 'nav.markets', Icon: IconMarkets },
  { to: PATHS.watchlists, key: 'nav.watchlists', Icon: IconStar },
  { to: PATHS.trade, key: 'nav.trade', Icon: IconTrade },
  { to: PATHS.account, key: 'nav.account', Icon: IconAccount },
] as const;

export function BottomNav() {
  const { t } = useTranslation();
  return (
    <nav className={s.nav} aria-label={t('nav.label')} data-bottom-bar="">
      {ITEMS.map(({ to, key, Icon }) => (
        <NavLink key={to} to={to} end={to === PATHS.home} className={s.navItem}>
          <Icon size={22} />
          <span>{t(key)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
