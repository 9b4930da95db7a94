import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../paths';
import s from './trading.module.css';

/**
 * Holdings | Positions at the top of the trade area: what is kept, and what today's session
 * traded (intraday positions are watched and exited there before the square-off). Links, since
 * each is a screen of its own with its own address.
 */
export function PortfolioSwitch({ current }: { current: 'holdings' | 'positions' }) {
  const { t } = useTranslation();
  const items = [
    { key: 'holdings', to: PATHS.trade, label: t('todayPositions.switch.holdings') },
    { key: 'positions', to: PATHS.positions, label: t('todayPositions.switch.positions') },
  ] as const;
  return (
    <nav className={s.viewSwitch} aria-label={t('todayPositions.switch.label')}>
      {items.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          replace
          className={s.viewSwitchItem}
          aria-current={item.key === current ? 'page' : undefined}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
