import type { OrderRow } from '#shared/contract/trading';

/**
 * What the trading DOM tests (tests/dom/trading-*.test.tsx) share: a played screen — its data
 * (`useWatch`), its clock (`useNow`) and the config (INR) — and one order row to vary. A test file
 * mocks the modules with these (`vi.mock` must be written in the test file itself):
 *
 *   vi.mock('../../src/api/hooks', async (original) =>
 *     (await import('../support/trading-screen')).playHooks(await original()));
 *
 * Only types are imported here, so loading this file from a mock factory loads no app module.
 */

type Hooks = typeof import('../../src/api/hooks');
type Client = typeof import('../../src/api/client');
type Clock = typeof import('../../src/ui/clock');
type ConfigModule = typeof import('../../src/api/useConfig');

/** The screen's data and clock, set by the tests that play it (the others see the real ones). */
export const played = {
  watch: null as null | ((name: string, input?: unknown) => unknown),
  now: null as number | null,
  /** The server's clock minus the phone's, while `now` is played. */
  serverOffset: 0,
};

/** After each test: the real data and clock again. */
export function resetPlayed(): void {
  played.watch = null;
  played.now = null;
  played.serverOffset = 0;
}

export function playHooks(actual: unknown): Hooks {
  const real = actual as Hooks;
  return {
    ...real,
    useWatch: ((...args: Parameters<Hooks['useWatch']>) =>
      // biome-ignore lint/correctness/useHookAtTopLevel: whether a test plays the screen is fixed for the whole test
      played.watch ? played.watch(args[0], args[1]) : real.useWatch(...args)) as Hooks['useWatch'],
  };
}

/**
 * A played screen has no worker: its events (money outcomes) come from the one fake worker, and its
 * money calls (an order placed) go to it, recorded in `fake.calls`.
 */
export function playClient(actual: unknown, fakeClient: unknown): Client {
  const real = actual as Client;
  const fake = fakeClient as Pick<Client, 'listen' | 'sendMoney' | 'forgetMoney'>;
  return {
    ...real,
    listen: ((...args: Parameters<Client['listen']>) =>
      played.watch ? fake.listen(...args) : real.listen(...args)) as Client['listen'],
    sendMoney: ((...args: Parameters<Client['sendMoney']>) =>
      played.watch ? fake.sendMoney(...args) : real.sendMoney(...args)) as Client['sendMoney'],
    forgetMoney: ((...args: Parameters<Client['forgetMoney']>) =>
      played.watch ? fake.forgetMoney(...args) : real.forgetMoney(...args)) as Client['forgetMoney'],
  };
}

export function playClock(actual: unknown): Clock {
  const real = actual as Clock;
  return {
    ...real,
    // biome-ignore lint/correctness/useHookAtTopLevel: whether a test sets the time is fixed for the whole test
    useNow: () => played.now ?? real.useNow(),
    // The server's clock: the played time moved by the played offset (a phone whose clock is off).
    // biome-ignore lint/correctness/useHookAtTopLevel: whether a test sets the time is fixed for the whole test
    useServerNow: () => (played.now === null ? real.useServerNow() : played.now + played.serverOffset),
  };
}

/** Prices in rupees. */
export function playConfig(actual: unknown): ConfigModule {
  const real = actual as ConfigModule;
  const config = real.parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
  return { ...real, useConfig: () => config };
}

/** A filled market sell of 10 TCS; tests spread it into the state they need. */
export const ORDER: OrderRow = {
  id: 7,
  no: 'S123',
  tag: 'TCS.NS',
  name: 'Tata Consultancy Services',
  market: 'IN',
  type: 'IN',
  mold: 'stock',
  state: 'sell',
  status: 1,
  count: 10,
  price: 3700,
  sell_price: 3772.06,
  fee: '0.00',
  price_all: '37720.60',
  profit: '720.60',
  created_at: Date.UTC(2026, 10, 24, 9, 30),
  updated_at: Date.UTC(2026, 10, 24, 9, 30),
  expires_at: null,
  limit_price: 3770,
  sellable: false,
  unlock_at: null,
  reason: null,
  order_type: null,
  trigger_price: null,
  triggered_at: null,
  trigger_rises: null,
  target_limit: null,
  stop_trigger: null,
  stop_limit: null,
  fired_leg: null,
  value: '37720.60',
  product: 'delivery',
  validity: 'day',
  amo: false,
  send_at: null,
};
