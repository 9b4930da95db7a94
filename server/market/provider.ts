import type { DepthLevel } from '#shared/contract/market';
import type { ScheduleId } from './hours';

/**
 * The one market-data interface. Every price the server uses — in answers, in fills, in total
 * assets — comes through it. One adapter per provider lives in its own folder (simulator/, yahoo/).
 *
 * Prices are display numbers with at most 4 decimals (`decimals` ≤ 4), so `priceToTicks(price)`
 * (src/shared/money.ts, 1/10,000) is exact: the price a user is quoted is the price money uses.
 */
export type Interval = '1m' | '1d' | '1wk' | '1mo';
export type InstrumentKind = 'stock' | 'index' | 'forex' | 'futures' | 'treasury';

export interface Instrument {
  /** Stable number of the instrument in the catalogue (SPEC's stock row `id`). */
  id: number;
  /** Provider symbol, e.g. RELIANCE.NS, AAPL, EURUSD=X, ^NSEI. */
  symbol: string;
  name: string;
  /** Market code of SPEC's calls: IN, US, FOREX, FUTURE, CGI, INDEX. */
  market: string;
  /** Exchange shown to the user (exchange_name), e.g. NSE, BSE, NASDAQ. */
  exchange: string;
  kind: InstrumentKind;
  /** Region of the currency symbol map: IN → ₹, US → $. */
  region: 'IN' | 'US';
  /** Quote currency; settlement converts USD with the configured rate. */
  currency: 'INR' | 'USD';
  /** Decimal places of the price (0–4). */
  decimals: number;
  /** Trading hours (server/market/hours.ts). */
  schedule: ScheduleId;
  /** Category of the Markets screen (NSE, BSE, US) for stocks and indices. */
  category?: string;
}

export interface Quote {
  symbol: string;
  price: number;
  /** Today's (or the last session's) open, high, low and volume so far. */
  open: number;
  high: number;
  low: number;
  /** Close of the session before. */
  prevClose: number;
  change: number;
  changePercent: number;
  volume: number;
  /** Epoch ms of the price. */
  asOf: number;
}

export interface Candle {
  /** Start of the bar, epoch ms. */
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Five levels of bids (best first, falling) and asks (best first, rising) around the quote. */
export interface Book {
  bids: DepthLevel[];
  asks: DepthLevel[];
  spread: number;
}

export interface MarketProvider {
  /** True for the simulator: the app labels its prices "Simulated market data". */
  readonly simulated: boolean;
  /** Instruments listed now (an IPO appears from its listing date). */
  instruments(): readonly Instrument[];
  /** Case-insensitive lookup of a listed instrument. */
  instrument(symbol: string): Instrument | undefined;
  quote(symbol: string): Quote | undefined;
  /**
   * Bars oldest first. `1m`: the current session (or the last one while the market is closed);
   * `1d`/`1wk`/`1mo`: the whole history. The last bar is the live one: its close is the quote.
   */
  candles(symbol: string, interval: Interval): readonly Candle[];
  /**
   * The order book around the quote, when the provider has one (the simulator does; a chart
   * source such as Yahoo's does not, and the app says "depth not available").
   */
  depth?(symbol: string): Book | undefined;
  /** Brings the market up to the clock (ticks when the price second changed); reads do it too. */
  sync(): void;
  /** Called after every tick; returns an unsubscribe function. */
  onTick(listener: (at: number) => void): () => void;
  /**
   * An instrument of the catalogue that lists on a date (IPOs: the seed passes the dates it stored).
   * Before `listedAt` it is not listed; its history starts on that date.
   */
  setListing(symbol: string, listedAt: number): void;
  /** Adapters with a remote source fetch what `candles(symbol, interval)` needs; the simulator has it. */
  prepare?(symbol: string, interval: Interval): Promise<void>;
  start(): void;
  stop(): void;
}
