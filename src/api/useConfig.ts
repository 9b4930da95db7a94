import { useMemo } from 'react';
import { CONFIG_TAGS } from '../shared/config-tags';
import type { ConfigRow } from '../shared/contract/config';
import { type CurrencyDisplay, currencySymbol, DEFAULT_CURRENCY } from '../shared/format';
import { DEFAULT_MIN_WITHDRAW } from '../shared/rules';
import { useWatch } from './hooks';

/** `/v2/config` parsed once into what screens need. */
export interface AppConfig {
  currency: CurrencyDisplay;
  /** Region → currency symbol (IN ₹, US $). */
  symbols: Record<string, string>;
  rate: string;
  minWithdraw: number;
  languages: string[];
  customerService: boolean;
  simulated: boolean;
  /** How far from the quote a limit may rest (basis points), or undefined when the server did not say. */
  limitBandBps: number | undefined;
  loaded: boolean;
}

export function parseConfig(rows: ConfigRow[] | undefined): AppConfig {
  const get = (tag: string) => rows?.find((r) => r.tag === tag)?.value;
  let symbols: Record<string, string> = { IN: '₹', US: '$' };
  try {
    symbols = { ...symbols, ...JSON.parse(get(CONFIG_TAGS.currencySymbols) ?? '{}') };
  } catch {
    // A malformed map keeps the defaults.
  }
  const unit = get(CONFIG_TAGS.currencyUnit) ?? DEFAULT_CURRENCY.unit;
  // SPEC's region map decides INR (IN) and USD (US); any other unit has its own sign (MXN "$"),
  // unless the map names that unit itself.
  const region = unit === 'USD' ? 'US' : unit === 'INR' ? 'IN' : unit;
  const minWithdraw = Number(get(CONFIG_TAGS.minWithdraw));
  const band = Number(get(CONFIG_TAGS.limitBand) ?? Number.NaN);
  return {
    currency: { unit, symbol: symbols[region] ?? currencySymbol(unit) },
    symbols,
    rate: get(CONFIG_TAGS.rate) ?? '20',
    minWithdraw: Number.isFinite(minWithdraw) && minWithdraw > 0 ? minWithdraw : DEFAULT_MIN_WITHDRAW,
    languages: (get(CONFIG_TAGS.languages) ?? 'en')
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean),
    customerService: get(CONFIG_TAGS.customerService) === '1',
    simulated: get(CONFIG_TAGS.simulated) === '1',
    limitBandBps: Number.isInteger(band) && band > 0 ? band : undefined,
    loaded: rows !== undefined,
  };
}

/**
 * How amounts of an instrument's region are shown: IN → ₹ with Indian grouping, US → $ (the
 * config's symbol map); the account's own currency for anything else.
 */
export function currencyFor(
  config: Pick<AppConfig, 'currency' | 'symbols'>,
  region: string,
): CurrencyDisplay {
  const unit = region === 'US' ? 'USD' : region === 'IN' ? 'INR' : config.currency.unit;
  return { unit, symbol: config.symbols[region] ?? config.currency.symbol };
}

const CONFIG_REFRESH_MS = 5 * 60 * 1000;

export function useConfig(): AppConfig {
  const { data } = useWatch('config', {}, CONFIG_REFRESH_MS);
  return useMemo(() => parseConfig(data), [data]);
}
