import fs from 'node:fs';
import path from 'node:path';
import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import {
  holdingsPath,
  newsArticlePath,
  PATHS,
  PATTERNS,
  recordDetailPath,
  stockPath,
  tradingPath,
  walletRecordsPath,
} from '../../src/paths';
import { ROUTES } from '../../src/routes';

/** Paths are written once (src/paths.ts): every one is a route, every route is one of them. */
describe('app paths', () => {
  const registered = ROUTES.map((r) => r.path);
  const routeOf = (url: string) =>
    ROUTES.find((r) => matchPath(r.path, new URL(url, 'http://app').pathname))?.path ?? null;

  it('every named path and pattern is a registered route, and every route has a name', () => {
    const named = [...Object.values(PATHS), ...Object.values(PATTERNS)];
    expect(Object.values(PATTERNS).filter((p) => !registered.includes(p))).toEqual([]);
    expect(Object.values(PATHS).filter((p) => routeOf(p) === null)).toEqual([]);
    expect(registered.filter((p) => !named.includes(p as (typeof named)[number]))).toEqual([]);
  });

  it('builders land on their route, with codes like ^NSEI and EURINR=X encoded', () => {
    expect(stockPath('^NSEI', 'NIFTY 50')).toBe('/stock/v2/%5ENSEI/NIFTY%2050');
    expect(routeOf(stockPath('^NSEI', 'NIFTY 50'))).toBe(PATTERNS.stockDetail);
    expect(stockPath('RELIANCE.NS', 'Reliance Industries', 'IN')).toBe(
      '/stock/RELIANCE.NS/IN/Reliance%20Industries',
    );
    expect(routeOf(stockPath('RELIANCE.NS', 'Reliance', 'IN'))).toBe(PATTERNS.stockDetailMarket);
    expect(tradingPath('AAPL', 'US', 'Apple Inc.')).toBe('/stock/trading/AAPL/US/Apple%20Inc.');
    expect(tradingPath('EURUSD=X', 'FOREX', 'EUR/USD', 'sell')).toBe(
      '/stock/trading/EURUSD%3DX/FOREX/EUR%2FUSD?type=sell',
    );
    expect(tradingPath('GC=F', '', 'Gold')).toBe('/stock/trading/GC%3DF/-/Gold');
    expect(routeOf(tradingPath('GC=F', 'FUTURE', 'Gold', 'buy'))).toBe(PATTERNS.stockTrading);
    expect(routeOf(holdingsPath('forex', '1'))).toBe(PATTERNS.holdings);
    expect(holdingsPath('stock')).toBe('/trade-no-nav/stock');
    expect(routeOf(newsArticlePath(7))).toBe(PATTERNS.newsArticle);
    expect(routeOf(recordDetailPath(3, 'withdraw'))).toBe(PATTERNS.recordDetail);
    expect(walletRecordsPath('recharge')).toBe('/recharge-records/recharge');
    expect(routeOf(walletRecordsPath('recharge'))).toBe(PATTERNS.walletRecords);
    expect(walletRecordsPath('withdraw')).toBe(PATHS.withdrawRecords);
  });
});

/**
 * Links, redirects and navigations name their path (`PATHS.x`, a builder) instead of spelling it:
 * a literal '/records' in a `to=`, `href=` or `navigate(…)` would survive a route's rename.
 */
describe('no route spelled outside src/paths.ts', () => {
  const SRC = path.resolve(import.meta.dirname, '../../src');
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? walk(p) : /\.tsx?$/.test(e.name) ? [p] : [];
    });
  const LITERAL_ROUTE = /\b(?:to|href)=\{?\s*['"`]\/|\bnavigate\(\s*['"`]\//;

  it('every link and navigation uses the paths module', () => {
    const found = walk(SRC)
      // The back office (src/backoffice, its own app under /ops/) spells its routes in its own paths.ts.
      .filter((f) => f !== path.join(SRC, 'paths.ts') && f !== path.join(SRC, 'backoffice', 'paths.ts'))
      .flatMap((f) =>
        fs
          .readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            LITERAL_ROUTE.test(line) ? [`${path.relative(SRC, f)}:${i + 1}: ${line.trim()}`] : [],
          ),
      );
    expect(found).toEqual([]);
  });
});
