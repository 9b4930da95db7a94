import { useTranslation } from 'react-i18next';
import { worker } from '../../../api/client';
import { useFavouriteMap } from '../../../device/favourites';
import { displayCode } from '../../../shared/rules';
import { IconStar } from '../../../ui';
import s from './market.module.css';

/**
 * The star of a market row: on when the instrument is in the default watchlist (Favourites).
 * It reads what the device knows (learned from every favourites answer, no request per row) and
 * toggles through the favourites outbox, so it works offline and shows "pending" until confirmed.
 */
export function StarButton({ symbol, name, market }: { symbol: string; name: string; market?: string }) {
  const { t } = useTranslation();
  const state = useFavouriteMap()[symbol];
  const on = state?.on === true;
  return (
    <button
      type="button"
      className={`${s.star} ${on ? s.starOn : ''}`}
      aria-pressed={on}
      aria-label={t('watch.star', { code: displayCode(symbol) })}
      data-pending={state?.pending ? '1' : undefined}
      onClick={() => void worker().toggleFavourite(symbol, !on, { name, market })}
    >
      <IconStar size={20} fill={on ? 'currentColor' : 'none'} />
    </button>
  );
}
