import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChartSource, createYahooProvider, fixtureSource } from '../../server/market/yahoo/index';
import { ChartError, parseChart } from '../../server/market/yahoo/parse';

const DIR = path.resolve(__dirname, '../fixtures/yahoo');
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), 'utf8'));

describe('Yahoo chart JSON', () => {
  it('parses meta and bars, leaving out the bars without prices', () => {
    const raw = load('RELIANCE.NS_1m_1d');
    const { meta, candles, gaps } = parseChart(raw);
    const r = raw.chart.result[0];
    expect(meta.symbol).toBe('RELIANCE.NS');
    expect(meta.gmtoffset).toBe(19800);
    expect(meta.regularMarketPrice).toBe(r.meta.regularMarketPrice);
    expect(meta.regularMarketTime).toBe(r.meta.regularMarketTime * 1000);
    expect(meta.name).toBe('Reliance Industries Limited');
    const nulls = r.indicators.quote[0].close.filter((c: unknown) => c === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(gaps).toBe(nulls);
    expect(candles).toHaveLength(r.timestamp.length - nulls);
    expect(candles[0]).toEqual({
      t: r.timestamp[0] * 1000,
      o: r.indicators.quote[0].open[0],
      h: r.indicators.quote[0].high[0],
      l: r.indicators.quote[0].low[0],
      c: r.indicators.quote[0].close[0],
      v: r.indicators.quote[0].volume[0],
    });
    // A bar with prices but no volume keeps its prices, with volume 0.
    const noVolume = r.indicators.quote[0].volume.findIndex(
      (v: unknown, i: number) => v === null && r.indicators.quote[0].close[i] !== null,
    );
    expect(candles.find((c) => c.t === r.timestamp[noVolume] * 1000)?.v).toBe(0);
    for (let i = 1; i < candles.length; i++) expect(candles[i]!.t).toBeGreaterThan(candles[i - 1]!.t);
  });

  it('turns the error payload into a ChartError with its code', () => {
    expect(() => parseChart(load('error_not_found'))).toThrow(ChartError);
    try {
      parseChart(load('error_not_found'));
    } catch (err) {
      expect((err as ChartError).code).toBe('Not Found');
      expect((err as ChartError).description).toMatch(/delisted/);
    }
  });

  it.each([
    ['series shorter than the timestamps', load('malformed_lengths')],
    ['no chart', { finance: {} }],
    ['no result', { chart: { result: [], error: null } }],
    ['not an object', 'Too Many Requests'],
    ['no meta', { chart: { result: [{ timestamp: [1] }], error: null } }],
  ])('rejects a malformed answer (%s)', (_label, body) => {
    expect(() => parseChart(body)).toThrow(ChartError);
  });

  it('reads a range without trades as no bars', () => {
    const { candles, meta } = parseChart(load('TCS.NS_1m_1d'));
    expect(candles).toEqual([]);
    expect(meta.regularMarketPrice).toBe(3102.5);
  });
});

describe('Yahoo provider over recorded files', () => {
  const now = () => Date.parse('2025-11-21T00:00:00Z');

  it('quotes from the day chart, rounded to the catalogue’s decimals, and serves each period', async () => {
    const errors: string[] = [];
    const p = createYahooProvider({
      source: fixtureSource(DIR),
      now,
      refreshMs: 60_000,
      onError: (symbol) => errors.push(symbol),
    });
    expect(p.simulated).toBe(false);
    let ticks = 0;
    p.onTick(() => ticks++);
    await p.refresh();
    expect(ticks).toBe(1);

    const meta = load('RELIANCE.NS_1m_1d').chart.result[0].meta;
    const q = p.quote('reliance.ns')!;
    expect(q.price).toBe(Math.round(meta.regularMarketPrice * 100) / 100);
    expect(q.prevClose).toBe(meta.chartPreviousClose);
    expect(q.change).toBe(Math.round((q.price - q.prevClose) * 100) / 100);
    expect(q.high).toBe(Math.round(meta.regularMarketDayHigh * 100) / 100);
    expect(q.volume).toBe(meta.regularMarketVolume);
    expect(p.candles('RELIANCE.NS', '1m').at(-1)!.c).toBe(q.price);

    // A pair quoted with 5 decimals by the source is kept to the catalogue's 4 (exact ticks).
    const fx = p.quote('EURUSD=X')!;
    expect(Math.round(fx.price * 10_000) / 10_000).toBe(fx.price);
    expect(p.candles('EURUSD=X', '1m').every((c) => c.v === 0)).toBe(true);

    // Symbols without a file answer "Not Found": no quote, and the failure is reported.
    expect(p.quote('MSFT')).toBeUndefined();
    expect(errors).toContain('MSFT');
    // No trades yet today: the meta still gives the price.
    expect(p.quote('TCS.NS')!.price).toBe(3102.5);

    await p.prepare!('AAPL', '1d');
    const daily = p.candles('AAPL', '1d');
    const raw = load('AAPL_1d_5y').chart.result[0];
    expect(daily).toHaveLength(raw.timestamp.length - 1);
    expect(daily.every((c) => c.l <= Math.min(c.o, c.c) && c.h >= Math.max(c.o, c.c))).toBe(true);
    await p.prepare!('AAPL', '1wk');
    await p.prepare!('AAPL', '1mo');
    expect(p.candles('AAPL', '1wk')).toHaveLength(6);
    expect(p.candles('AAPL', '1mo')).toHaveLength(6);
  });

  it('keeps the last good data when the source fails, and never lists the simulator’s IPOs', async () => {
    let fail = false;
    const files = fixtureSource(DIR);
    const source: ChartSource = async (symbol, interval, range) => {
      if (fail) throw new Error('ECONNRESET');
      return files(symbol, interval, range);
    };
    const p = createYahooProvider({ source, now, refreshMs: 60_000 });
    await p.refresh();
    const before = p.quote('AAPL');
    expect(before).toBeDefined();
    fail = true;
    await p.refresh();
    expect(p.quote('AAPL')).toEqual(before);
    expect(p.instruments().some((i) => i.symbol === 'ZENTRIX.NS')).toBe(false);
    p.setListing('ZENTRIX.NS', 0);
    expect(p.instrument('ZENTRIX.NS')).toBeUndefined();
  });
});
