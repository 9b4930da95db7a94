import type { ComponentType } from 'react';

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
  /** Hides the floating customer-service button. */
  noService?: boolean;
}

export const ROUTES: AppRoute[] = [
  { path: '/login', public: true, noService: true, load: () => import('./screens/Login/LoginScreen') },
  {
    path: '/register',
    public: true,
    noService: true,
    load: () => import('./screens/Register/RegisterScreen'),
  },
  {
    path: '/forgot-password',
    public: true,
    noService: true,
    load: () => import('./screens/ForgotPassword/ForgotPasswordScreen'),
  },
  { path: '/', nav: true, load: () => import('./screens/Home/HomeScreen') },
  { path: '/markets', nav: true, load: () => import('./screens/Markets/MarketsScreen') },
  // The Buy/Sell bar holds the bottom of the stock detail: no floating service button there.
  {
    path: '/stock/v2/:symbol/:name',
    noService: true,
    load: () => import('./screens/StockDetail/StockDetailScreen'),
  },
  {
    path: '/stock/:code/:market/:name',
    noService: true,
    load: () => import('./screens/StockDetail/StockDetailScreen'),
  },
  { path: '/forex', load: () => import('./screens/Forex/ForexScreen') },
  { path: '/futures', load: () => import('./screens/Futures/FuturesScreen') },
  { path: '/treasury-debt', load: () => import('./screens/TreasuryDebt/TreasuryDebtScreen') },
  { path: '/settings', load: () => import('./screens/Settings/SettingsScreen') },
  {
    path: '/settings/login-password',
    load: () => import('./screens/LoginPassword/LoginPasswordScreen'),
  },
  { path: '/settings/real-name', load: () => import('./screens/RealName/RealNameScreen') },
  { path: '/settings/bank-cards', load: () => import('./screens/BankCards/BankCardsScreen') },
  { path: '/news', load: () => import('./screens/News/NewsScreen') },
  { path: '/news/:id', load: () => import('./screens/NewsArticle/NewsArticleScreen') },
  {
    path: '/customer-service',
    noService: true,
    load: () => import('./screens/CustomerService/CustomerServiceScreen'),
  },
  { path: '/ipo', load: () => import('./screens/Ipo/IpoScreen') },
  { path: '/ipo/orders', load: () => import('./screens/IpoOrders/IpoOrdersScreen') },
  { path: '/block-trading', load: () => import('./screens/BlockTrading/BlockTradingScreen') },
  { path: '/block-trading/orders', load: () => import('./screens/BlockOrders/BlockOrdersScreen') },
  { path: '/qip', load: () => import('./screens/Qip/QipScreen') },
  { path: '/qip/orders', load: () => import('./screens/QipOrders/QipOrdersScreen') },
  { path: '/fund-investment', load: () => import('./screens/FundInvestment/FundInvestmentScreen') },
  { path: '/fund-investment/orders', load: () => import('./screens/FundOrders/FundOrdersScreen') },
  { path: '/watchlists', nav: true, load: () => import('./screens/Watchlists/WatchlistsScreen') },
  { path: '/trade', nav: true, load: () => import('./screens/Holdings/HoldingsScreen') },
  { path: '/trade-no-nav/:type/:buck?', load: () => import('./screens/Holdings/HoldingsScreen') },
  {
    path: '/stock/trading/:symbol/:market/:name?',
    noService: true,
    load: () => import('./screens/StockTrading/StockTradingScreen'),
  },
  { path: '/records', load: () => import('./screens/Records/RecordsScreen') },
  { path: '/trading/:code', load: () => import('./screens/TradingEntry/TradingEntryScreen') },
  { path: '/account', nav: true, load: () => import('./screens/Account/AccountScreen') },
  { path: '/account/changes', load: () => import('./screens/AccountChanges/AccountChangesScreen') },
  {
    path: '/account/recharge-withdraw/:id',
    load: () => import('./screens/RecordDetail/RecordDetailScreen'),
  },
  { path: '/recharge', load: () => import('./screens/Recharge/RechargeScreen') },
  { path: '/withdraw', load: () => import('./screens/Withdraw/WithdrawScreen') },
  { path: '/recharge-records/:type?', load: () => import('./screens/WalletRecords/WalletRecordsScreen') },
  { path: '/withdraw-records', load: () => import('./screens/WalletRecords/WalletRecordsScreen') },
  { path: '/loan', load: () => import('./screens/Loan/LoanScreen') },
  { path: '/LoanApplication', load: () => import('./screens/LoanApplication/LoanApplicationScreen') },
  { path: '/loan-records', load: () => import('./screens/LoanRecords/LoanRecordsScreen') },
];
