import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { POLL_MS } from '../../shared/rules';

/**
 * Markets: the categories (regions), the selected one's indices (live, 5 s) and which index tab is
 * open. The choice lives in the address (?region=&index=) so coming back restores it.
 */
export function useMarkets() {
  const [params, setParams] = useSearchParams();
  const categories = useWatch('categoryList', {}, 0);
  const list = categories.data?.categories ?? [];
  const wanted = params.get('region');
  const category = list.find((c) => c.category_code === wanted) ?? list[0];
  const code = category?.category_code ?? null;
  const indices = useWatch('indexList', code ? { category: code } : null, POLL_MS.indexCard);
  const rows = indices.data?.rows.filter((r) => r.category_code === code) ?? [];
  const wantedIndex = params.get('index');
  const index =
    rows.find((r) => r.symbol === wantedIndex) ??
    rows.find((r) => r.symbol === category?.index_symbol) ??
    rows[0];

  const choose = (next: { region?: string; index?: string }) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (next.region !== undefined) {
          out.set('region', next.region);
          out.delete('index');
        }
        if (next.index !== undefined) out.set('index', next.index);
        return out;
      },
      { replace: true },
    );

  /**
   * The search text is in the address too: Home's search button arrives with an empty one (the
   * field takes the focus), and coming back from a result shows the same results.
   */
  const search = params.get('search');
  const setSearch = (text: string | null) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        if (text === null) out.delete('search');
        else out.set('search', text);
        return out;
      },
      { replace: true },
    );

  return { categories, category, indices, rows, index, choose, search, setSearch };
}
