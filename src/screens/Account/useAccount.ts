import { useWatch } from '../../api/hooks';
import { ACCOUNT_MARKET_LIMIT, POLL_MS } from '../../shared/rules';

/** Account (SPEC §2): the user's money, polled every 3 s, and a market list of three. */
export function useAccount() {
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  const markets = useWatch('stockList', { page: 1, limit: ACCOUNT_MARKET_LIMIT }, POLL_MS.prices);
  return { info, markets };
}
