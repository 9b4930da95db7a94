import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { POLL_MS } from '../../shared/rules';

/** SPEC §7 polling: account info every 3 s. */
const ACCOUNT_POLL_MS = 3000;
/** SPEC §9: the home page previews the 3 latest news. */
export const HOME_NEWS = 3;
/** News changes rarely; a visit to Home refreshes it at most this often. */
const NEWS_REFRESH_MS = 5 * 60 * 1000;

/**
 * Home: the account summary, the index card of every category (live, 5 s) and the latest news,
 * which SPEC hides when the configured currency is INR (it is then not even fetched).
 */
export function useHome() {
  const { currency, loaded } = useConfig();
  const info = useWatch('userInfo', {}, ACCOUNT_POLL_MS);
  const categories = useWatch('categoryList', {}, 0);
  const indices = useWatch('indexList', {}, POLL_MS.indexCard);
  const showNews = loaded && currency.unit !== 'INR';
  const news = useWatch('newsList', showNews ? { page: 1, limit: 10 } : null, NEWS_REFRESH_MS);
  const cards = (categories.data?.categories ?? []).flatMap((c) => {
    const card = indices.data?.rows.find((r) => r.symbol === c.index_symbol);
    return card ? [{ category: c, card }] : [];
  });
  return {
    info,
    categories,
    indices,
    cards,
    showNews,
    news,
    /** Undefined until the news list arrives (the screen shows skeletons or the error). */
    latest: news.data?.rows.slice(0, HOME_NEWS),
  };
}
