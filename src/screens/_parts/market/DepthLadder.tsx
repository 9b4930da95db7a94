import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import type { DepthLevel } from '../../../shared/contract/market';
import { formatPrice, formatQuantity, regionUnit } from '../../../shared/format';
import { AsOf, ObjectStates, Skeleton } from '../../../ui';
import d from './depth.module.css';

/** The book moves every second; three seconds is what the order ticket polls its quote at. */
export const DEPTH_POLL_MS = 3000;

/**
 * Five levels of bid and ask (`/v2/depth`): price, quantity and the running total, each level's
 * bar sized by its total against the deeper side, and the spread. Quantities are exact. Self-contained (its own poll),
 * so stock detail and the order ticket place it with one line. A provider without an order book
 * says "depth not available" rather than inventing one.
 */
export function DepthLadder({ symbol, compact = false }: { symbol: string; compact?: boolean }) {
  const { t } = useTranslation();
  const depth = useWatch('depth', symbol ? { symbol } : null, DEPTH_POLL_MS);
  const titleId = `depth-${symbol}`;
  return (
    <ObjectStates
      data={depth.data}
      error={depth.error}
      onRetry={depth.reload}
      loading={<Skeleton height={compact ? 150 : 190} />}
    >
      {({ book, decimals, region }) => (
        <section
          className={`${d.card} ${compact ? d.compact : ''}`}
          aria-labelledby={titleId}
          data-testid="depth"
        >
          <div className={d.head}>
            <h2 id={titleId} className={d.title}>
              {t('watch.depth.title')}
            </h2>
            {book && (
              <span className={`${d.spread} num`}>
                {t('watch.depth.spread', { spread: formatPrice(book.spread, decimals) })}
              </span>
            )}
            {depth.stale && <AsOf at={depth.updatedAt} stale />}
          </div>
          {book ? (
            <div className={d.sides}>
              <Side
                label={t('watch.depth.bids')}
                levels={book.bids}
                decimals={decimals}
                unit={regionUnit(region)}
                side="bid"
              />
              <Side
                label={t('watch.depth.asks')}
                levels={book.asks}
                decimals={decimals}
                unit={regionUnit(region)}
                side="ask"
              />
            </div>
          ) : (
            <p className={d.none}>{t('watch.depth.none')}</p>
          )}
        </section>
      )}
    </ObjectStates>
  );
}

function Side({
  label,
  levels,
  decimals,
  unit,
  side,
}: {
  label: string;
  levels: DepthLevel[];
  decimals: number;
  /** Quantities are grouped as the instrument's money is (lakh for INR). */
  unit: string;
  side: 'bid' | 'ask';
}) {
  const { t } = useTranslation();
  const deepest = Math.max(1, levels.at(-1)?.total ?? 1);
  return (
    <table className={d.table}>
      <caption className="visually-hidden">{label}</caption>
      <thead>
        <tr>
          <th scope="col">{side === 'bid' ? t('watch.depth.bid') : t('watch.depth.ask')}</th>
          <th scope="col">{t('watch.depth.qty')}</th>
          <th scope="col">{t('watch.depth.total')}</th>
        </tr>
      </thead>
      <tbody>
        {levels.map((l) => (
          <tr key={l.price} className={side === 'bid' ? d.bid : d.ask}>
            <td className="num">
              <span className={d.bar} style={{ width: `${Math.round((l.total / deepest) * 100)}%` }} />
              <span className={d.price}>{formatPrice(l.price, decimals)}</span>
            </td>
            <td className="num">{formatQuantity(l.qty, unit)}</td>
            <td className="num">{formatQuantity(l.total, unit)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
