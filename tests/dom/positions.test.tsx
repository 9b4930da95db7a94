import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DayPosition, DayPositions, OrderQuote } from '#shared/contract/trading';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import PositionsScreen from '../../src/screens/Positions/PositionsScreen';
import { fake } from '../support/fake-worker';
import { ORDER } from '../support/trading-screen';

/**
 * Positions as the worker answers them: open and closed rows, the square-off time in the
 * exchange's zone, and Exit all — one confirmation naming each intraday sell and its charges from
 * the server's figures, a market sell per position through dealSell, and each result as the server
 * answered it (one filled, one refused with its reason).
 */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
let answers: { positions?: DayPositions; quotes: Record<string, OrderQuote> } = { quotes: {} };
vi.mock('../../src/api/hooks', async () => {
  const { watchResult: result } = await import('../support/fake-worker');
  return {
    useWatch: (name: string, input: { tag?: string } | null) =>
      result(name === 'positions' ? answers.positions : answers.quotes[input?.tag ?? '']),
  };
});

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
});
afterEach(cleanup);

/** 15:30 IST on Tuesday 24/11/2026. */
const CLOSE = Date.UTC(2026, 10, 24, 10, 0);

const row = (over: Partial<DayPosition>): DayPosition => ({
  stock: 'RELIANCE.NS',
  name: 'Reliance Industries',
  market: 'IN',
  region: 'IN',
  decimals: 2,
  product: 'intraday',
  net: 4,
  buy_count: 4,
  buy_avg: 2500,
  sell_count: 0,
  sell_avg: 0,
  prasent: 2510,
  pnl: '40.00',
  charges: '1.75',
  exitable: 4,
  square_at: CLOSE,
  as_of: CLOSE - 3_600_000,
  ...over,
});

const quote = (tag: string, count: number, price: number, value: string, total: string, net: string) =>
  ({
    tag,
    side: 'sell',
    count,
    price,
    value,
    charges: {
      brokerage: '0.00',
      stt: '0.00',
      exchange: '0.00',
      sebi: '0.00',
      stamp: '0.00',
      gst: '0.00',
      total,
    },
    net,
    protection: '0.00',
    limit: null,
    required: '0.00',
    available: '100000.00',
    blocked: '0.00',
    held: count,
    affordable: 0,
    as_of: CLOSE - 3_600_000,
    session: { open: true, opens_at: null, closes_at: CLOSE },
  }) as OrderQuote;

describe('Positions', () => {
  it('lists open and closed positions, and exits every intraday one with what each sells and costs', async () => {
    answers = {
      positions: {
        rows: [
          row({}),
          row({ stock: 'TCS.NS', name: 'Tata Consultancy Services', net: 2, exitable: 2, pnl: '-12.50' }),
          row({
            stock: 'INFY.NS',
            name: 'Infosys',
            product: 'delivery',
            net: 3,
            exitable: 3,
            square_at: null,
          }),
          row({
            stock: 'HDFCBANK.NS',
            name: 'HDFC Bank',
            net: 0,
            exitable: 0,
            sell_count: 4,
            sell_avg: 2510,
            square_at: null,
          }),
        ],
        pnl: '67.50',
        as_of: CLOSE - 3_600_000,
      },
      quotes: {
        'RELIANCE.NS': quote('RELIANCE.NS', 4, 2510, '10040.00', '3.10', '10036.90'),
        'TCS.NS': quote('TCS.NS', 2, 3990, '7980.00', '2.45', '7977.55'),
      },
    };
    render(
      <MemoryRouter>
        <PositionsScreen />
      </MemoryRouter>,
    );
    const open = screen.getByTestId('positions-open');
    expect(
      within(open)
        .getAllByTestId('position')
        .map((li) => li.dataset.symbol),
    ).toEqual(['RELIANCE.NS', 'TCS.NS', 'INFY.NS']);
    const reliance = within(open).getAllByTestId('position')[0]!;
    expect(within(reliance).getByTestId('position-square-off').textContent).toBe(
      'Squared off automatically at 15:30 IST',
    );
    expect(within(reliance).getByTestId('position-pnl').textContent).toBe('▲ +₹40.00');
    // A delivery position has no square-off; a closed one no Exit.
    const infy = within(open).getAllByTestId('position')[2]!;
    expect(within(infy).queryByTestId('position-square-off')).toBeNull();
    const closed = screen.getByTestId('positions-closed');
    expect(within(closed).queryByRole('button')).toBeNull();
    expect(screen.getByTestId('positions-pnl').textContent).toBe('▲ +₹67.50');

    fireEvent.click(screen.getByRole('button', { name: 'Exit all intraday' }));
    const dialog = screen.getByRole('dialog', { name: 'Exit 2 intraday positions?' });
    expect(
      within(dialog)
        .getAllByTestId('exit-line')
        .map((l) => l.dataset.symbol),
    ).toEqual(['RELIANCE.NS', 'TCS.NS']);
    expect(within(dialog).getByTestId('exit-charges').textContent).toBe('₹5.55');
    expect(within(dialog).getByTestId('exit-net').textContent).toBe('₹18,014.45');

    fake.respond = (name, input) => {
      const sell = input as { tag: string; count: number };
      if (name !== 'dealSell') return { ok: true, data: null };
      return sell.tag === 'TCS.NS'
        ? { ok: false, error: 'errors.noIntradayPosition', status: 400 }
        : {
            ok: true,
            data: { ...ORDER, tag: sell.tag, count: sell.count, product: 'intraday', sell_price: 2510 },
          };
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exit all (2)' }));
    const results = await screen.findByRole('dialog', { name: 'Exit results' });
    expect(fake.calls.filter((c) => c.name === 'dealSell').map((c) => c.input)).toEqual([
      {
        tag: 'RELIANCE.NS',
        mold: 'stock',
        count: 4,
        price: 2510,
        product: 'intraday',
        order_type: 'market',
        validity: 'day',
      },
      {
        tag: 'TCS.NS',
        mold: 'stock',
        count: 2,
        price: 3990,
        product: 'intraday',
        order_type: 'market',
        validity: 'day',
      },
    ]);
    // Each as the server answered it: one filled, one refused with its reason.
    expect(within(results).getByTestId('result-status').textContent).toBe('Success');
    expect(within(results).getByRole('alert').textContent).toContain('TCS: not sold');
    expect(within(results).getByRole('alert').textContent).toContain('An intraday sell only closes');
  });

  it('says there is nothing today without trades', () => {
    answers = { positions: { rows: [], pnl: '0.00', as_of: 1 }, quotes: {} };
    render(
      <MemoryRouter>
        <PositionsScreen />
      </MemoryRouter>,
    );
    expect(screen.getByText('No trades today')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Exit all intraday' })).toBeNull();
  });
});
