/** Paths of the market screens (SPEC §2 routes), with every segment encoded (codes like ^NSEI, EURINR=X). */
const seg = (text: string) => encodeURIComponent(text);

/** Stock detail: the market variant (with the same-market list) when the market is known. */
export function stockPath(symbol: string, name: string, market?: string): string {
  return market
    ? `/stock/${seg(symbol)}/${seg(market)}/${seg(name)}`
    : `/stock/v2/${seg(symbol)}/${seg(name)}`;
}

/** The buy/sell screen (another screen's route; linked, not built here). */
export function tradingPath(symbol: string, market: string, name: string, type: 'buy' | 'sell'): string {
  return `/stock/trading/${seg(symbol)}/${seg(market)}/${seg(name)}?type=${type}`;
}
