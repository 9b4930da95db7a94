import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PortfolioSummary, PortfolioTotals } from '#shared/contract/portfolio';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { Allocation } from '../../src/screens/_parts/portfolio/PortfolioPanel';
import { Signed, TotalsCard } from '../../src/screens/_parts/portfolio/parts';

/** The portfolio's parts (Trade tab, Home, Account): figures as the server sent them, signs, shares. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

beforeAll(async () => {
  await initI18n('all');
});
afterEach(cleanup);

const TOTALS: PortfolioTotals = {
  invested: '15000.00',
  value: '15600.00',
  pnl: '600.00',
  pnl_percent: 4,
  today_pnl: '-1200.00',
  today_percent: -7.69,
  positions: 1,
  as_of: Date.now(),
};
const ZERO: PortfolioTotals = {
  ...TOTALS,
  invested: '0.00',
  value: '0.00',
  pnl: '0.00',
  pnl_percent: 0,
  today_pnl: '0.00',
  today_percent: 0,
  positions: 0,
  as_of: 0,
};

describe('portfolio parts', () => {
  it('shows value, invested, total and today’s P&L with signs, the time and the disclosure', () => {
    render(<TotalsCard title="Summary" totals={TOTALS} updatedAt={Date.now()} stale={false} />);
    expect(screen.getByTestId('portfolio-value').textContent).toBe('₹15,600.00');
    expect(screen.getByTestId('portfolio-invested').textContent).toBe('₹15,000.00');
    expect(screen.getByTestId('portfolio-pnl').textContent).toBe('▲+₹600.00 (+4.00%)');
    expect(screen.getByTestId('portfolio-today').textContent).toBe('▼-₹1,200.00 (-7.69%)');
    expect(screen.getByText('1 position')).toBeTruthy();
    expect(screen.getByText(/Unrealised returns/)).toBeTruthy();
    expect(document.querySelector('[data-tier]')).not.toBeNull();
  });

  it('zeros on an empty account, never a blank', () => {
    render(<TotalsCard title="Summary" totals={ZERO} updatedAt={Date.now()} stale={false} />);
    expect(screen.getByTestId('portfolio-value').textContent).toBe('₹0.00');
    expect(screen.getByTestId('portfolio-pnl').textContent).toBe('₹0.00 (0.00%)');
    expect(screen.getByText('0 positions')).toBeTruthy();
  });

  it('keeps a signed figure in the text colour: the sign and arrow carry the direction', () => {
    render(<Signed amount="-5.00" currency={config.currency} />);
    const el = screen.getByText((_, node) => node?.getAttribute('data-sign') === '-1');
    expect(el.className).not.toMatch(/down|up/);
  });

  it('splits the total by type with each part’s amount and share', () => {
    const summary: PortfolioSummary = {
      overall: TOTALS,
      by_type: { stock: { ...TOTALS, value: '15600.00' }, forex: ZERO, futures: ZERO, treasury: ZERO },
      cash: '84400.00',
      other: '0.00',
      funds: '0.00',
      total: '100000.00',
      today: '-1200.00',
      today_percent: -1.19,
      as_of: Date.now(),
    };
    render(
      <MemoryRouter>
        <Allocation summary={summary} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('listitem', { name: 'Stocks: ₹15,600.00, 15.6%' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Cash: ₹84,400.00, 84.4%' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: /^Forex/ })).toBeNull();
  });
});
