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
  /** The screen it shows: src/screens/<screen>/<screen>Screen.tsx (`loadScreen`). */
  screen: string;
  /** Reachable without a session (login, register, forgot-password). */
  public?: boolean;
  /** Shows the bottom navigation. */
  nav?: boolean;
  /**
   * Hides the customer-service button. Lists of instruments (markets, forex, futures, treasury
   * debt, watchlists, holdings) hide it: pages keep coming. Other screens show it on a bar of its
   * own at the bottom (ServiceButton), or, with the bottom navigation, in their header (Home,
   * Account: `ServiceHeaderLink`), once per screen.
   */
  noService?: boolean;
  /**
   * The message areas (locales/<lang>/<area>.json) the screen needs beyond the first ones
   * (src/i18n); unset: all of them. The screen waits for them beside its own chunk.
   */
  messages?: Area[];
}

export const ROUTES: AppRoute[] = [
  { path: PATHS.login, public: true, noService: true, messages: [], screen: 'Login' },
  { path: PATHS.register, public: true, noService: true, messages: [], screen: 'Register' },
  { path: PATHS.forgotPassword, public: true, noService: true, messages: [], screen: 'ForgotPassword' },
  { path: PATHS.home, nav: true, messages: ['markets', 'portfolio'], screen: 'Home' },
  { path: PATHS.markets, nav: true, noService: true, screen: 'Markets' },
  // The Buy/Sell bar holds the bottom of the stock detail: no floating service button there.
  { path: PATTERNS.stockDetail, noService: true, screen: 'StockDetail' },
  { path: PATTERNS.stockDetailMarket, noService: true, screen: 'StockDetail' },
  { path: PATHS.forex, noService: true, screen: 'Forex' },
  { path: PATHS.futures, noService: true, screen: 'Futures' },
  { path: PATHS.treasuryDebt, noService: true, screen: 'TreasuryDebt' },
  { path: PATHS.settings, screen: 'Settings' },
  { path: PATHS.loginPassword, screen: 'LoginPassword' },
  { path: PATHS.realName, screen: 'RealName' },
  { path: PATHS.bankCards, screen: 'BankCards' },
  { path: PATHS.security, messages: ['security'], screen: 'Security' },
  { path: PATHS.notificationSettings, messages: ['notices'], screen: 'NotificationSettings' },
  { path: PATHS.news, screen: 'News' },
  { path: PATTERNS.newsArticle, screen: 'NewsArticle' },
  { path: PATHS.customerService, noService: true, screen: 'CustomerService' },
  { path: PATHS.ipo, screen: 'Ipo' },
  { path: PATHS.ipoOrders, screen: 'IpoOrders' },
  { path: PATHS.blockTrading, screen: 'BlockTrading' },
  { path: PATHS.blockOrders, screen: 'BlockOrders' },
  { path: PATHS.qip, screen: 'Qip' },
  { path: PATHS.qipOrders, screen: 'QipOrders' },
  { path: PATHS.funds, screen: 'FundInvestment' },
  { path: PATHS.fundOrders, screen: 'FundOrders' },
  { path: PATTERNS.fundDetail, screen: 'FundDetail' },
  { path: PATHS.watchlists, nav: true, noService: true, screen: 'Watchlists' },
  { path: PATHS.alerts, screen: 'Alerts' },
  { path: PATHS.notifications, screen: 'Notifications' },
  { path: PATHS.trade, nav: true, noService: true, screen: 'Holdings' },
  { path: PATTERNS.holdings, noService: true, screen: 'Holdings' },
  { path: PATHS.positions, nav: true, noService: true, screen: 'Positions' },
  { path: PATTERNS.stockTrading, noService: true, screen: 'StockTrading' },
  { path: PATHS.records, screen: 'Records' },
  { path: PATHS.statement, screen: 'Statement' },
  { path: PATTERNS.tradingEntry, screen: 'TradingEntry' },
  { path: PATHS.account, nav: true, screen: 'Account' },
  { path: PATHS.accountChanges, screen: 'AccountChanges' },
  { path: PATTERNS.recordDetail, screen: 'RecordDetail' },
  { path: PATHS.recharge, screen: 'Recharge' },
  { path: PATHS.withdraw, screen: 'Withdraw' },
  { path: PATTERNS.walletRecords, screen: 'WalletRecords' },
  { path: PATHS.withdrawRecords, screen: 'WalletRecords' },
  { path: PATHS.loan, screen: 'Loan' },
  { path: PATHS.loanApplication, screen: 'LoanApplication' },
  { path: PATHS.loanRecords, screen: 'LoanRecords' },
];

/*
 * Each screen is a chunk of its own. The glob is read on a call, not at the module's start: the
 * build (vite.config.ts) reads ROUTES in Node, where only the bundler gives `import.meta.glob` a
 * meaning.
 */
const screenModules = () => import.meta.glob<{ default: ComponentType }>('./screens/*/*Screen.tsx');

/** The module of a route's screen: its chunk, fetched on the first visit and kept. */
export function loadScreen(route: Pick<AppRoute, 'screen'>): Promise<{ default: ComponentType }> {
  const load = screenModules()[`./screens/${route.screen}/${route.screen}Screen.tsx`];
  return load ? load() : Promise.reject(new Error(`no screen named ${route.screen}`));
}

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
