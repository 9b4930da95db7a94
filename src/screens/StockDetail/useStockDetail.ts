import { useParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useQuote } from '../../api/quotes';
import { useFavourite } from '../../device/favourites';
import { PAGE_SIZE, POLL_MS } from '../../shared/rules';

/**
 * Stock detail, both routes: /stock/:code/:market/:name (the market variant, with the list of the
 * same market's stocks every 3 s) and /stock/v2/:symbol/:name. The quote head (open, high, low,
 * previous close) polls like prices; the live price comes from any answer that carries it.
 */
export function useStockDetail() {
  const params = useParams();
  const symbol = params.symbol ?? params.code ?? '';
  const routeMarket = params.symbol ? undefined : params.market;
  const head = useWatch('quote', symbol ? { symbol } : null, POLL_MS.prices);
  const market = routeMarket ?? head.data?.market;
  const name = head.data?.name ?? params.name ?? symbol;
  const live = useQuote(symbol).quote;
  const favourite = useFavourite(symbol || null, { name, market });
  const sameMarket = useWatch(
    'stockList',
    routeMarket ? { market: routeMarket, page: 1, limit: PAGE_SIZE } : null,
    POLL_MS.stockDetailList,
  );
  return { symbol, routeMarket, market, name, head, live, favourite, sameMarket };
}
