/**
 * Every path of the app (SPEC §2 routes), written once: `routes.tsx` registers the patterns, links
 * and redirects use the names and builders. Segments are encoded (codes like ^NSEI, EURINR=X).
 */
export const PATHS = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  markets: '/markets',
  forex: '/forex',
  futures: '/futures',
  treasuryDebt: '/treasury-debt',
  watchlists: '/watchlists',
  alerts: '/alerts',
  notifications: '/notifications',
  trade: '/trade',
  positions: '/trade/positions',
  records: '/records',
  statement: '/statement',
  settings: '/settings',
  loginPassword: '/settings/login-password',
  realName: '/settings/real-name',
  bankCards: '/settings/bank-cards',
  security: '/settings/security',
  notificationSettings: '/settings/notifications',
  news: '/news',
  customerService: '/customer-service',
  ipo: '/ipo',
  ipoOrders: '/ipo/orders',
  blockTrading: '/block-trading',
  blockOrders: '/block-trading/orders',
  qip: '/qip',
  qipOrders: '/qip/orders',
  funds: '/fund-investment',
  fundOrders: '/fund-investment/orders',
  account: '/account',
  accountChanges: '/account/changes',
  recharge: '/recharge',
  withdraw: '/withdraw',
  rechargeRecords: '/recharge-records',
  withdrawRecords: '/withdraw-records',
  loan: '/loan',
  loanApplication: '/LoanApplication',
  loanRecords: '/loan-records',
} as const;

/** Route patterns with parameters (react-router syntax), beside the builders that fill them. */
export const PATTERNS = {
  stockDetail: '/stock/v2/:symbol/:name',
  stockDetailMarket: '/stock/:code/:market/:name',
  stockTrading: '/stock/trading/:symbol/:market/:name?',
  tradingEntry: '/trading/:code',
  holdings: '/trade-no-nav/:type/:buck?',
  fundDetail: '/fund-investment/:id',
  newsArticle: '/news/:id',
  recordDetail: '/account/recharge-withdraw/:id',
  walletRecords: '/recharge-records/:type?',
} as const;

const seg = (text: string | number) => encodeURIComponent(String(text));

/** Stock detail: the market variant (with the same-market list) when the market is known. */
export function stockPath(symbol: string, name: string, market?: string): string {
  return market
    ? `/stock/${seg(symbol)}/${seg(market)}/${seg(name)}`
    : `/stock/v2/${seg(symbol)}/${seg(name)}`;
}

/** The buy/sell screen; without a type it opens on buy (SPEC). A missing market is `-`. */
export function tradingPath(symbol: string, market: string, name: string, type?: 'buy' | 'sell'): string {
  const path = `/stock/trading/${seg(symbol)}/${seg(market || '-')}/${seg(name)}`;
  return type ? `${path}?type=${type}` : path;
}

/** Holdings without the bottom navigation, for one type (SPEC `/trade-no-nav/{type}/{buck?}`). */
export function holdingsPath(type: string, buck?: string): string {
  return `/trade-no-nav/${seg(type)}${buck ? `/${seg(buck)}` : ''}`;
}

export const newsArticlePath = (id: number) => `/news/${seg(id)}`;

/** A fund's page: its NAV history, returns, costs and the user's units. */
export const fundPath = (id: number) => `/fund-investment/${seg(id)}`;

export const recordDetailPath = (id: number, type: 'recharge' | 'withdraw') =>
  `/account/recharge-withdraw/${seg(id)}?type=${type}`;

/** The recharge tab of the wallet records (`/recharge-records/recharge`); withdrawals have their own path. */
export const walletRecordsPath = (type: 'recharge' | 'withdraw') =>
  type === 'withdraw' ? PATHS.withdrawRecords : `${PATHS.rechargeRecords}/${type}`;

/** A route of this app (one leading slash, not `//host`): what a notification click may navigate to. */
export function isAppPath(path: unknown): path is string {
  return typeof path === 'string' && path.length <= 512 && /^\/(?![/\\])[^\s\\]*$/.test(path);
}
