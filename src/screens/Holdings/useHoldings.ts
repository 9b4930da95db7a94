import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { holdingsPath } from '../../paths';
import { type HoldingKind, holdingType, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { usePages } from '../../ui';

/**
 * Holdings (SPEC §2): /trade (bottom nav, type in ?type=) and /trade-no-nav/{type}/{buck?} (the
 * type from the path, as the forex/futures/treasury screens link to it). Values and unrealised
 * P/L come from the server at its current quotes, polled with the prices (5 s).
 */
export function useHoldings() {
  const params = useParams<{ type?: string; buck?: string }>();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const noNav = params.type !== undefined;
  const type = holdingType(noNav ? params.type : search.get('type'));
  const first = useWatch('holdings', { type, page: 1, limit: PAGE_SIZE }, POLL_MS.prices);
  const paging = usePages(type);

  function setType(next: HoldingKind) {
    if (noNav) {
      navigate(holdingsPath(next, params.buck), { replace: true });
    } else setSearch(next === 'stock' ? {} : { type: next }, { replace: true });
  }

  const count = first.data?.count ?? 0;
  return { type, setType, noNav, first, paging, hasMore: paging.pages * PAGE_SIZE < count };
}
