/** Config tags of `/v2/config` (no schema code, so the UI can import it cheaply). */
export const CONFIG_TAGS = {
  /** Configured minimum withdrawal in whole units (default 100). */
  minWithdraw: 'min_withdraw_count',
  /** Account currency code, e.g. INR. */
  currencyUnit: 'currency_unit',
  /** JSON map region → symbol, e.g. {"IN":"₹","US":"$"}. */
  currencySymbols: 'currency_symbols',
  /** Account-currency units per US dollar, decimal string (default "20"). */
  rate: 'rate',
  /**
   * When the operator last set `rate` (`npm run ops -- rate:set`), epoch ms: the configured rate is
   * a fallback only for FX_RATE_MAX_AGE_MS after it (server/trading/fx.ts); never set, never fresh.
   */
  rateSetAt: 'rate_set_at',
  /** Comma-separated language codes offered in the menu (default "en"). */
  languages: 'languages',
  /** "1" when customer service (chat, floating button, unread badge) is on. */
  customerService: 'customer_service',
  /** "1" in production. */
  production: 'production',
  /** "1" when the market data comes from the simulator. */
  simulated: 'simulated_market',
  /** How far from the quote a limit order may rest, in basis points (the server's LIMIT_BAND_BPS). */
  limitBand: 'limit_band_bps',
} as const;
