import { describe, expect, it } from 'vitest';
import { invertRateTicks, PRICE_SCALE, rateToTicks, tradeValueMinor } from '#shared/money';
import { decideUsdRate, type FxInputs } from '../../server/trading/fx';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const maxAge = { quoteMaxAgeMs: 5 * MIN, configuredMaxAgeMs: 24 * HOUR };

function inputs(over: Partial<FxInputs> = {}): FxInputs {
  return {
    unit: 'INR',
    now: NOW,
    live: { symbol: 'USDINR=X', ticks: 887_123, asOf: NOW - 1000, newest: NOW },
    configured: { value: '20', setAt: String(NOW - HOUR) },
    maxAge,
    ...over,
  };
}

describe('rates are exact decimals (src/shared/money.ts)', () => {
  it('takes a written rate exactly, up to 4 places, and refuses anything else', () => {
    expect(rateToTicks('20')).toBe(200_000);
    expect(rateToTicks('20.29')).toBe(202_900);
    expect(rateToTicks(' 88.7123 ')).toBe(887_123);
    for (const bad of ['', '0', '0.0000', '-20', '20.12345', '1e3', '20,5', 'abc', undefined, null]) {
      expect(rateToTicks(bad)).toBeNull();
    }
  });

  it('inverts a rate once, HALF_UP to ticks', () => {
    // 1 / 1.157 = 0.864304… → 0.8643
    expect(invertRateTicks(11_570)).toBe(8643);
    // 1 / 0.8 = 1.25 exactly
    expect(invertRateTicks(8000)).toBe(12_500);
    // 1 / 3 = 0.33333… → 0.3333; 1 / 1.5 = 0.66666… → 0.6667 (half up)
    expect(invertRateTicks(30_000)).toBe(3333);
    expect(invertRateTicks(15_000)).toBe(6667);
    expect(() => invertRateTicks(0)).toThrow(RangeError);
  });

  it('converts with the rate in one HALF_UP to the minor unit', () => {
    // $190.55 × 51 × 88.7123 = 862,110.567015 → ₹862,110.57
    expect(tradeValueMinor(1_905_500, 51, 887_123)).toBe(86_211_057);
  });
});

describe('the USD rate: live, else configured, else refused (server/trading/fx.ts)', () => {
  it('uses the live quote while it is fresh, whatever the configured rate says', () => {
    expect(decideUsdRate(inputs())).toEqual({
      unit: 'INR',
      ticks: 887_123,
      source: 'live',
      asOf: NOW - 1000,
      fresh: true,
      symbol: 'USDINR=X',
    });
  });

  it('counts a quote as fresh up to the maximum age behind the newest its market can have', () => {
    const at = (asOf: number, newest = NOW) =>
      decideUsdRate(inputs({ live: { symbol: 'USDINR=X', ticks: 887_123, asOf, newest } }));
    expect(at(NOW - 5 * MIN).source).toBe('live');
    expect(at(NOW - 5 * MIN - 1).source).toBe('configured');
    // A shut forex market (a weekend): its last close is the newest price there can be.
    const friday = NOW - 40 * HOUR;
    expect(at(friday - 1000, friday)).toMatchObject({ source: 'live', fresh: true });
  });

  it('falls back to the configured rate while the operator set it recently enough', () => {
    const stale = { symbol: 'USDINR=X', ticks: 887_123, asOf: NOW - HOUR, newest: NOW };
    expect(decideUsdRate(inputs({ live: stale }))).toMatchObject({
      ticks: 200_000,
      source: 'configured',
      asOf: NOW - HOUR,
      fresh: true,
    });
    expect(
      decideUsdRate(inputs({ live: null, configured: { value: '20.29', setAt: String(NOW - 24 * HOUR) } })),
    ).toMatchObject({ ticks: 202_900, source: 'configured', fresh: true });
  });

  it('is not fresh when neither is: the stale quote first, else the configured rate, for labels only', () => {
    const stale = { symbol: 'USDINR=X', ticks: 887_123, asOf: NOW - HOUR, newest: NOW };
    const old = { value: '20', setAt: String(NOW - 24 * HOUR - 1) };
    expect(decideUsdRate(inputs({ live: stale, configured: old }))).toMatchObject({
      ticks: 887_123,
      source: 'live',
      asOf: NOW - HOUR,
      fresh: false,
    });
    expect(decideUsdRate(inputs({ live: null, configured: old }))).toMatchObject({
      ticks: 200_000,
      source: 'configured',
      asOf: NOW - 24 * HOUR - 1,
      fresh: false,
    });
  });

  it('never counts a configured rate nobody set, set in the future, or unreadable', () => {
    for (const configured of [
      { value: '20', setAt: undefined },
      { value: '20', setAt: 'soon' },
      { value: '20', setAt: String(NOW + MIN) },
      { value: 'twenty', setAt: String(NOW) },
    ]) {
      expect(decideUsdRate(inputs({ live: null, configured })).fresh).toBe(false);
    }
    expect(decideUsdRate(inputs({ live: null, configured: { value: undefined, setAt: undefined } }))).toEqual(
      {
        unit: 'INR',
        ticks: null,
        source: null,
        asOf: null,
        fresh: false,
        symbol: null,
      },
    );
  });

  it('needs no rate for an account kept in US dollars', () => {
    expect(
      decideUsdRate(inputs({ unit: 'USD', live: null, configured: { value: undefined, setAt: undefined } })),
    ).toMatchObject({ ticks: PRICE_SCALE, fresh: true });
  });
});
