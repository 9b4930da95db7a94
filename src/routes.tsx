import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router-dom';
import type { Area } from './i18n/index';
import { PATHS, PATTERNS } from './paths';

/**
 * Every route of SPEC §2 that exists, with what the shell needs to know about it. A screen lives in
 * src/screens/<Name>/<Name>Screen.tsx and is loaded only when its route is visited.
 */
export interface AppRoute {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
  /** Reachable without a session (login, register, forgot-password). */
  public?: boolean;
  /** Shows the bottom navigation. */
  nav?: boolean;
  /**
   * Hides the floating customer-service button. Lists of instruments (markets, forex, futures,
   * treasury debt, watchlists, holdings) hide it: their rows end in the price and % column under
   * it, and pages keep coming. Other screens leave room for it at their end (ServiceButton).
   */
  noService?: boolean;
  /**
   * The message areas (locales/<lang>/<area>.json) the screen needs beyond the first ones
   * (src/i18n); unset: all of them. The screen waits for them beside its own chunk.
   */
  messages?: Area[];
}

export const ROUTES: AppRoute[] = [
  {
    path: PATHS.login,
    public: true,
    noService: true,
    messages: [],
    load: () => import('./screens/Login/LoginScreen'),
  },
  {
    path: PATHS.register,
    public: true,
    noService: true,
    messages: [],
    load: () => import('./screens/Register/RegisterScreen'),
  },
  {
    path: PATHS.forgotPassword,
    public: true,
    noService: true,
    messages: [],
    load: () => import('./screens/ForgotPassword/ForgotPasswordScreen'),
  },
  {
    path: PATHS.home,
    nav: true,
    messages: ['markets', 'portfolio'],
    load: () => import('./screens/Home/HomeScreen'),
  },
  { path: PATHS.markets, nav: true, noService: true, load: () => import('./screens/Markets/MarketsScreen') },
  // The Buy/Sell bar holds the bottom of the stock detail: no floating service button there.
  {
    path: PATTERNS.stockDetail,
    noService: true,
    load: () => import('./screens/StockDetail/StockDetailScreen'),
  },
  {
    path: PATTERNS.stockDetailMarket,
    noService: true,
    load: () => import('./screens/StockDetail/StockDetailScreen'),
  },
  { path: PATHS.forex, noService: true, load: () => import('./screens/Forex/ForexScreen') },
  { path: PATHS.futures, noService: true, load: () => import('./screens/Futures/FuturesScreen') },
  {
    path: PATHS.treasuryDebt,
    noService: true,
    load: () => import('./screens/TreasuryDebt/TreasuryDebtScreen'),
  },
  { path: PATHS.settings, load: () => import('./screens/Settings/SettingsScreen') },
  {
    path: PATHS.loginPassword,
    load: () => import('./screens/LoginPassword/LoginPasswordScreen'),
  },
  { path: PATHS.realName, load: () => import('./screens/RealName/RealNameScreen') },
  { path: PATHS.bankCards, load: () => import('./screens/BankCards/BankCardsScreen') },
  { path: PATHS.news, load: () => import('./screens/News/NewsScreen') },
  { path: PATTERNS.newsArticle, load: () => import('./screens/NewsArticle/NewsArticleScreen') },
  {
    path: PATHS.customerService,
    noService: true,
    load: () => import('./screens/CustomerService/CustomerServiceScreen'),
  },
  { path: PATHS.ipo, load: () => import('./screens/Ipo/IpoScreen') },
  { path: PATHS.ipoOrders, load: () => import('./screens/IpoOrders/IpoOrdersScreen') },
  { path: PATHS.blockTrading, load: () => import('./screens/BlockTrading/BlockTradingScreen') },
  { path: PATHS.blockOrders, load: () => import('./screens/BlockOrders/BlockOrdersScreen') },
  { path: PATHS.qip, load: () => import('./screens/Qip/QipScreen') },
  { path: PATHS.qipOrders, load: () => import('./screens/QipOrders/QipOrdersScreen') },
  { path: PATHS.funds, load: () => import('./screens/FundInvestment/FundInvestmentScreen') },
  { path: PATHS.fundOrders, load: () => import('./screens/FundOrders/FundOrdersScreen') },
  {
    path: PATHS.watchlists,
    nav: true,
    noService: true,
    load: () => import('./screens/Watchlists/WatchlistsScreen'),
  },
  { path: PATHS.alerts, load: () => import('./screens/Alerts/AlertsScreen') },
  { path: PATHS.notifications, load: () => import('./screens/Notifications/NotificationsScreen') },
  { path: PATHS.trade, nav: true, noService: true, load: () => import('./screens/Holdings/HoldingsScreen') },
  { path: PATTERNS.holdings, noService: true, load: () => import('./screens/Holdings/HoldingsScreen') },
  {
    path: PATTERNS.stockTrading,
    noService: true,
    load: () => import('./screens/StockTrading/StockTradingScreen'),
  },
  { path: PATHS.records, load: () => import('./screens/Records/RecordsScreen') },
  { path: PATHS.statement, load: () => import('./screens/Statement/StatementScreen') },
  { path: PATTERNS.tradingEntry, load: () => import('./screens/TradingEntry/TradingEntryScreen') },
  { path: PATHS.account, nav: true, load: () => import('./screens/Account/AccountScreen') },
  { path: PATHS.accountChanges, load: () => import('./screens/AccountChanges/AccountChangesScreen') },
  {
    path: PATTERNS.recordDetail,
    load: () => import('./screens/RecordDetail/RecordDetailScreen'),
  },
  { path: PATHS.recharge, load: () => import('./screens/Recharge/RechargeScreen') },
  { path: PATHS.withdraw, load: () => import('./screens/Withdraw/WithdrawScreen') },
  { path: PATTERNS.walletRecords, load: () => import('./screens/WalletRecords/WalletRecordsScreen') },
  { path: PATHS.withdrawRecords, load: () => import('./screens/WalletRecords/WalletRecordsScreen') },
  { path: PATHS.loan, load: () => import('./screens/Loan/LoanScreen') },
  { path: PATHS.loanApplication, load: () => import('./screens/LoanApplication/LoanApplicationScreen') },
  { path: PATHS.loanRecords, load: () => import('./screens/LoanRecords/LoanRecordsScreen') },
];

/**
 * The route whose screen the app will show first at `pathname`: react-router's own ranking, then the
 * shell's redirects (a visitor on a private route sees login, a signed-in user on login sees home;
 * src/shell/AppShell.tsx). src/main.tsx starts loading its chunk and messages before React starts.
 */
export function firstRoute(pathname: string, signedIn: boolean): AppRoute | undefined {
  // A route's own path (most starts: /, /login, /markets) is the one the router ranks first; the
  // router's ranking of every pattern took tens of milliseconds of a slow phone's start.
  const route =
    ROUTES.find((r) => r.path === pathname) ??
    matchRoutes(
      ROUTES.map((r) => ({ path: r.path, r })),
      pathname,
    )?.[0]?.route.r;
  if (route && !route.public && !signedIn) return ROUTES.find((r) => r.path === PATHS.login);
  if (route?.path === PATHS.login && signedIn) return ROUTES.find((r) => r.path === PATHS.home);
  return route;
}
