import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { MarketStatusChip } from '../../src/screens/_parts/market/InstrumentFacts';
import { OrderDetail } from '../../src/screens/_parts/trading/OrderDetailSheet';
import { OrderLine } from '../../src/screens/_parts/trading/OrderLine';
import { AsOf } from '../../src/ui/AsOf';
import { ORDER, played, resetPlayed } from '../support/trading-screen';

/**
 * Exchange time: an exchange's hours, "opens", the as-of time of its prices and its
 * orders' times are the exchange's, labelled ("09:15 IST", "09:30 ET"), with the process — the
 * phone — in UTC, in Los Angeles or in Tokyo. (A phone set to UTC once read NSE "opens Mon 03:45".)
 */

vi.mock('../../src/api/useConfig', async (original) =>
  (await import('../support/trading-screen')).playConfig(await original()),
);
vi.mock('../../src/ui/clock', async (original) =>
  (await import('../support/trading-screen')).playClock(await original()),
);

const ZONE = process.env.TZ;
beforeAll(async () => {
  await initI18n('all');
});
afterEach(() => {
  cleanup();
  resetPlayed();
});
afterAll(() => {
  process.env.TZ = ZONE;
});

// Saturday 28 Nov 2026, 01:05 UTC (06:35 IST; Friday 20:05 ET): every stock market closed.
const SATURDAY = Date.UTC(2026, 10, 28, 1, 5);
// Tuesday 24 Nov 2026, 15:00 UTC: NSE closed for the day (it closed 10:00 UTC), NYSE open (since 14:30 UTC).
const TUESDAY = Date.UTC(2026, 10, 24, 15, 0);

describe.each([
  ['UTC', 1],
  ['America/Los_Angeles', 17],
  ['Asia/Tokyo', 10],
])('with the phone in %s', (zone, saturdayHour) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });

  it('is really in that zone (its own clock reads the hour it should)', () => {
    expect(new Date(SATURDAY).getHours()).toBe(saturdayHour);
  });

  it('says when a closed market opens in its own time: NSE Mon 09:15 IST, NYSE Mon 09:30 ET', () => {
    played.now = SATURDAY;
    render(
      <>
        <MarketStatusChip market="IN" region="IN" />
        <MarketStatusChip market="US" region="US" />
      </>,
    );
    const chips = screen.getAllByTestId('market-status').map((c) => c.textContent);
    expect(chips).toEqual(['Closed · opens Mon 09:15 IST', 'Closed · opens Mon 09:30 ET']);
  });

  it("says when an open market closes in its own time, and a closed one's next open", () => {
    played.now = TUESDAY;
    render(
      <>
        <MarketStatusChip market="US" region="US" />
        <MarketStatusChip market="IN" region="IN" />
        <MarketStatusChip market="FUTURE" region="US" />
      </>,
    );
    expect(screen.getAllByTestId('market-status').map((c) => c.textContent)).toEqual([
      'Open · closes 16:00 ET',
      'Closed · opens Wed 09:15 IST',
      'Open · closes 16:00 CT',
    ]);
  });

  it("stamps a price with the exchange's time: live today, and Closed · as of its close", () => {
    played.now = TUESDAY;
    render(
      <>
        <AsOf at={TUESDAY - 5_000} every={3_000} schedule="US" />
        <AsOf at={Date.UTC(2026, 10, 24, 9, 59, 30)} schedule="NSE" />
      </>,
    );
    expect(screen.getByText('as of 09:59:55 ET')).toBeTruthy();
    expect(screen.getByText('Closed · as of 15:29:30 IST')).toBeTruthy();
  });

  it("takes open or closed from the server's clock, not the phone's: a phone 20 minutes behind", () => {
    // The phone reads 09:55 UTC (NSE open until 10:00 UTC); the server's clock says 10:15.
    played.now = Date.UTC(2026, 10, 24, 9, 55);
    played.serverOffset = 20 * 60_000;
    render(
      <>
        <MarketStatusChip market="IN" region="IN" />
        <AsOf
          at={Date.UTC(2026, 10, 24, 9, 59, 30)}
          every={3_000}
          fetchedAt={played.now - 1_000}
          schedule="NSE"
        />
      </>,
    );
    expect(screen.getByTestId('market-status').textContent).toBe('Closed · opens Wed 09:15 IST');
    expect(screen.getByText('Closed · as of 15:29:30 IST')).toBeTruthy();
  });

  it("shows an order's time in its detail in the exchange's time", () => {
    played.now = TUESDAY;
    const actions = { modify: () => {}, cancel: () => {}, note: () => {} };
    render(
      <MemoryRouter>
        <OrderDetail
          order={{ ...ORDER, created_at: Date.UTC(2026, 10, 24, 9, 30) }}
          onClose={() => {}}
          actions={actions}
        />
        <OrderDetail
          order={{
            ...ORDER,
            id: 8,
            no: 'S124',
            tag: 'AAPL',
            market: 'US',
            type: 'US',
            created_at: TUESDAY,
          }}
          onClose={() => {}}
          actions={actions}
        />
      </MemoryRouter>,
    );
    expect(screen.getByText('24/11/2026, 15:00 IST')).toBeTruthy();
    expect(screen.getByText('24/11/2026, 10:00 ET')).toBeTruthy();
  });

  it('shows an after-market order pending with its send time, the exchange’s, and lets it be cancelled', () => {
    played.now = SATURDAY;
    const cancelled: string[] = [];
    const actions = { modify: () => {}, cancel: (o: { no: string }) => cancelled.push(o.no), note: () => {} };
    const amo = {
      ...ORDER,
      state: 'buy' as const,
      status: 0,
      no: 'B9',
      amo: true,
      send_at: Date.UTC(2026, 10, 30, 3, 45),
      created_at: SATURDAY,
    };
    render(
      <MemoryRouter>
        <ul>
          <OrderLine order={amo} onOpen={() => {}} />
        </ul>
        <OrderDetail order={amo} onClose={() => {}} actions={actions} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('order-amo').textContent).toBe('After-market');
    expect(screen.getByTestId('order-type').textContent).toBe('Market');
    expect(screen.getByTestId('order-sends-at').textContent).toBe('Mon 09:15 IST');
    expect(screen.getByTestId('order-status').textContent).toBe('Pending');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order for TCS' }));
    expect(cancelled).toEqual(['B9']);
  });
});
