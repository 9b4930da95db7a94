import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { IconAccount, IconHome, IconMarkets, IconStar, IconTrade } from '../ui/icons';
import s from './shell.module.css';

const ITEMS = [
  { to: '/', key: 'nav.home', Icon: IconHome },
  { to: '/markets', key: 'nav.markets', Icon: IconMarkets },
  { to: '/watchlists', key: 'nav.watchlists', Icon: IconStar },
  { to: '/trade', key: 'nav.trade', Icon: IconTrade },
  { to: '/account', key: 'nav.account', Icon: IconAccount },
] as const;

export function BottomNav() {
  const { t } = useTranslation();
  return (
    <nav className={s.nav} aria-label={t('nav.label')}>
      {ITEMS.map(({ to, key, Icon }) => (
        <NavLink key={to} to={to} end={to === '/'} className={s.navItem}>
          <Icon size={22} />
          <span>{t(key)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
