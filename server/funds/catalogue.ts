import type { FundCategory } from '#shared/funds';

/**
 * The schemes the seed offers, as their scheme documents would state them: the AMC, the SEBI
 * category and riskometer level, the total expense ratio (a year, taken out of the NAV), the exit
 * load and its period, the launch date and NAV at launch, and the minimum first purchase. The NAV
 * history itself is the simulator's (nav.ts). `formerly`: the name the fixed-term product of the
 * same row had before funds became mutual funds (migration 082 renames those rows).
 */
export interface FundFacts {
  name: string;
  formerly: string;
  manager: string;
  category: FundCategory;
  /** SEBI riskometer, 1 Low … 6 Very high. */
  risk: number;
  expenseBps: number;
  /** Exit load, parts per million of the redeemed value, on units held fewer than `exitLoadDays` days. */
  exitLoadPpm: number;
  exitLoadDays: number;
  launched: string;
  /** NAV at launch, whole rupees (liquid funds start at 1,000, others at 10). */
  navBase: number;
  /** Minimum first purchase, whole rupees. */
  minimum: number;
}

export const FUND_CATALOGUE: readonly FundFacts[] = [
  {
    name: 'Bourse Liquid Fund',
    formerly: 'Bourse Liquid Plus',
    manager: 'Bourse Asset Management',
    category: 'liquid',
    risk: 2,
    expenseBps: 20,
    // SEBI's graded liquid-fund load starts at 0.0070 % on day 1; this scheme charges that flat for a week.
    exitLoadPpm: 70,
    exitLoadDays: 7,
    launched: '2018-01-02',
    navBase: 1000,
    minimum: 500,
  },
  {
    name: 'Bourse Short Duration Fund',
    formerly: 'Short Term Income',
    manager: 'Bourse Asset Management',
    category: 'debt',
    risk: 3,
    expenseBps: 35,
    exitLoadPpm: 0,
    exitLoadDays: 0,
    launched: '2019-04-01',
    navBase: 10,
    minimum: 1000,
  },
  {
    name: 'Meridian Gilt Fund',
    formerly: 'Gilt Secure',
    manager: 'Meridian Asset Management',
    category: 'gilt',
    risk: 3,
    expenseBps: 45,
    exitLoadPpm: 0,
    exitLoadDays: 0,
    launched: '2018-06-01',
    navBase: 10,
    minimum: 1000,
  },
  {
    name: 'Meridian Balanced Advantage Fund',
    formerly: 'Balanced Advantage',
    manager: 'Meridian Asset Management',
    category: 'hybrid',
    risk: 5,
    expenseBps: 75,
    exitLoadPpm: 10_000,
    exitLoadDays: 365,
    launched: '2020-02-03',
    navBase: 10,
    minimum: 1000,
  },
  {
    name: 'Northgate Global Technology FoF',
    formerly: 'Global Technology Opportunities',
    manager: 'Northgate Asset Management',
    category: 'international',
    risk: 6,
    expenseBps: 55,
    exitLoadPpm: 10_000,
    exitLoadDays: 365,
    launched: '2024-03-04',
    navBase: 10,
    minimum: 1000,
  },
  {
    name: 'Meridian Infrastructure Fund',
    formerly: 'Infrastructure Yield',
    manager: 'Meridian Asset Management',
    category: 'equity',
    risk: 6,
    expenseBps: 90,
    exitLoadPpm: 5000,
    exitLoadDays: 30,
    launched: '2021-08-02',
    navBase: 10,
    minimum: 1000,
  },
];
