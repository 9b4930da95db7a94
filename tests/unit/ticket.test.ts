import { describe, expect, it } from 'vitest';
import {
  evaluateTicket,
  INITIAL_TICKET,
  orderShapeError,
  stopPriceError,
  type TicketMarket,
  type TicketState,
  ticketReducer,
} from '../../src/shared/ticket';

/** The ticket's rules (#shared/ticket), the same for the app's ticket and the server's checks. */

const MARKET: TicketMarket = {
  side: 'buy',
  last: 2500,
  decimals: 2,
  live: true,
  open: true,
  held: 0,
  affordable: 40,
};
const with_ = (patch: Partial<TicketState>): TicketState => ({ ...INITIAL_TICKET, ...patch });

describe('which fields go together (orderShapeError)', () => {
  it('accepts what the ticket sends', () => {
    expect(orderShapeError('buy', { price: 2500 })).toBeNull();
    expect(orderShapeError('buy', { price: 2500, order_type: 'limit', validity: 'ioc' })).toBeNull();
    expect(
      orderShapeError('sell', {
        price: 2690,
        order_type: 'oco',
        trigger: 2700,
        stop_trigger: 2300,
        stop_price: 2290,
      }),
    ).toBeNull();
  });

  it('refuses each combination the server refuses, with its key', () => {
    const cases: Array<['buy' | 'sell', Parameters<typeof orderShapeError>[1], string]> = [
      ['buy', { price: 1, stop_trigger: 2 }, 'errors.ocoOnly'],
      [
        'buy',
        { price: 1, order_type: 'oco', trigger: 2, stop_trigger: 1, stop_price: 1 },
        'errors.ocoSellOnly',
      ],
      ['sell', { price: 1, order_type: 'oco', trigger: 2 }, 'errors.ocoBothTriggers'],
      ['buy', { price: 1, valid_days: 5 }, 'errors.gttValidity'],
      ['buy', { price: 1, order_type: 'gtt', trigger: 2, valid_days: 366 }, 'errors.gttValidity'],
      ['buy', { price: 1, order_type: 'slm' }, 'errors.triggerMissing'],
      ['buy', { price: 1, order_type: 'gtt', trigger: 2, product: 'intraday' }, 'errors.invalidInput'],
      ['buy', { price: 1, order_type: 'sl', trigger: 2, validity: 'ioc' }, 'errors.invalidInput'],
    ];
    for (const [side, order, key] of cases)
      expect(orderShapeError(side, order), JSON.stringify(order)).toBe(key);
  });

  it('places a stop on a move to come, a GTT on either side, a limit at or beyond its trigger', () => {
    expect(stopPriceError('buy', 'sl', 2600, 2610, 2500)).toBeNull();
    expect(stopPriceError('buy', 'slm', 2400, null, 2500)).toBe('errors.triggerSide');
    expect(stopPriceError('sell', 'sl', 2600, 2590, 2500)).toBe('errors.triggerSide');
    expect(stopPriceError('buy', 'gtt', 2400, 2410, 2500)).toBeNull();
    expect(stopPriceError('buy', 'gtt', 2500, 2510, 2500)).toBe('errors.gttTrigger');
    expect(stopPriceError('buy', 'sl', 2600, 2590, 2500)).toBe('errors.triggerLimit');
    expect(stopPriceError('sell', 'sl', 2400, 2410, 2500)).toBe('errors.triggerLimit');
  });
});

describe('the ticket (ticketReducer, evaluateTicket)', () => {
  it('prefills a limit order with the last price, once, and keeps what the user typed', () => {
    let s = ticketReducer(INITIAL_TICKET, { type: 'orderType', value: 'limit', last: 2412.5, decimals: 2 });
    expect(s.limit).toBe('2412.50');
    s = ticketReducer(s, { type: 'text', field: 'limit', value: '2400.x5' });
    expect(s.limit).toBe('2400.5');
    s = ticketReducer(s, { type: 'orderType', value: 'market', last: 2500, decimals: 2 });
    s = ticketReducer(s, { type: 'orderType', value: 'limit', last: 2500, decimals: 2 });
    expect(s.limit).toBe('2400.5');
    // A stop-loss's limit sits beyond its trigger: not the last price.
    expect(
      ticketReducer(INITIAL_TICKET, { type: 'orderType', value: 'sl', last: 2500, decimals: 2 }).limit,
    ).toBe('');
  });

  it('prefills an empty, untouched limit with the last price when the ticket has one; never a field the user emptied', () => {
    const limit = with_({ orderType: 'limit' });
    expect(ticketReducer(limit, { type: 'prefill', last: 2412.5, decimals: 2 }).limit).toBe('2412.50');
    const emptied = ticketReducer(limit, { type: 'text', field: 'limit', value: '' });
    expect(emptied.limitEdited).toBe(true);
    expect(ticketReducer(emptied, { type: 'prefill', last: 2412.5, decimals: 2 }).limit).toBe('');
    const typed = with_({ orderType: 'limit', limit: '2400' });
    expect(ticketReducer(typed, { type: 'prefill', last: 2412.5, decimals: 2 }).limit).toBe('2400');
  });

  it("says a day limit that would rest outside the server's band before it is sent", () => {
    const banded = { ...MARKET, bandBps: 1000 };
    const at = (side: 'buy' | 'sell', limit: string, m: Partial<TicketMarket> = {}) =>
      evaluateTicket(with_({ orderType: 'limit', limit, qty: '1' }), { ...banded, side, held: 5, ...m });
    // A buy waits under the market: 10 % under is the edge, further is refused.
    expect(at('buy', '2250').blocked).toBeNull();
    expect(at('buy', '2249.99').blocked).toBe('errors.limitOutsideBand');
    expect(at('buy', '2249.99').bandPct).toBe(10);
    // Over the market a buy fills at once: no band.
    expect(at('buy', '2900').blocked).toBeNull();
    expect(at('sell', '2750.01').blocked).toBe('errors.limitOutsideBand');
    expect(at('sell', '2000').blocked).toBeNull();
    // An IOC never rests; an after-market order rests until the open, on either side.
    expect(
      evaluateTicket(with_({ orderType: 'limit', limit: '2000', qty: '1', validity: 'ioc' }), banded).blocked,
    ).toBeNull();
    expect(at('buy', '2900', { open: false }).blocked).toBe('errors.limitOutsideBand');
    // The band unknown: only the server says so.
    expect(at('buy', '2000', { bandBps: undefined }).blocked).toBeNull();
  });

  it('steps the quantity within 1..max', () => {
    const at = (qty: string, delta: 1 | -1, max: number) =>
      ticketReducer(with_({ qty }), { type: 'step', delta, max }).qty;
    expect(at('1', -1, 50)).toBe('1');
    expect(at('50', 1, 50)).toBe('50');
    expect(at('', 1, 50)).toBe('1');
    expect(at('7', 1, 0)).toBe('1');
  });

  it('sends a market order as typed, and says why when it cannot', () => {
    const v = evaluateTicket(with_({ qty: '3' }), MARKET);
    expect(v.blocked).toBeNull();
    expect(v.input).toEqual({
      count: 3,
      price: 2500,
      order_type: 'market',
      product: 'delivery',
      validity: 'day',
    });
    expect(evaluateTicket(with_({ qty: '41' }), MARKET).blocked).toBe('trade.qty.maxFunds');
    expect(evaluateTicket(with_({ qty: '' }), MARKET).blocked).toBe('trade.qty.min');
    expect(evaluateTicket(INITIAL_TICKET, { ...MARKET, last: null }).blocked).toBe('trade.why.noPrice');
    expect(evaluateTicket(INITIAL_TICKET, { ...MARKET, side: 'sell' }).blocked).toBe('trade.why.noShares');
    expect(evaluateTicket(with_({ orderType: 'limit', limit: '' }), MARKET).blocked).toBe(
      'trade.limit.invalid',
    );
    expect(evaluateTicket(with_({ orderType: 'slm', trigger: '' }), MARKET).blocked).toBe(
      'errors.triggerMissing',
    );
  });

  it('offers IOC only to market and limit orders on an open market; a closed one makes an after-market order', () => {
    const ioc = with_({ validity: 'ioc' });
    expect(evaluateTicket(ioc, MARKET)).toMatchObject({ iocAllowed: true, validity: 'ioc', amo: false });
    expect(evaluateTicket(ioc, { ...MARKET, open: false })).toMatchObject({
      iocAllowed: false,
      validity: 'day',
      amo: true,
    });
    expect(evaluateTicket(with_({ validity: 'ioc', orderType: 'sl' }), MARKET).validity).toBe('day');
    // The AMO's figures are asked at the last price: the server adds the protection it holds, named.
    expect(evaluateTicket(INITIAL_TICKET, { ...MARKET, open: false }).quotedAt).toBe(2500);
  });

  it('keeps a GTT delivery, an OCO to sells, and a stale price to limit orders', () => {
    expect(evaluateTicket(with_({ orderType: 'gtt', product: 'intraday' }), MARKET).product).toBe('delivery');
    expect(evaluateTicket(with_({ orderType: 'gtt', gttKind: 'oco' }), MARKET).oco).toBe(false);
    expect(
      evaluateTicket(with_({ orderType: 'gtt', gttKind: 'oco' }), { ...MARKET, side: 'sell', held: 5 }).oco,
    ).toBe(true);
    expect(evaluateTicket(INITIAL_TICKET, { ...MARKET, live: false }).orderType).toBe('limit');
  });

  it('an order the ticket lets through passes the server’s shape check', () => {
    const states: TicketState[] = [
      with_({ qty: '2' }),
      with_({ orderType: 'limit', limit: '2490', validity: 'ioc' }),
      with_({ orderType: 'sl', trigger: '2600', limit: '2610' }),
      with_({ orderType: 'slm', trigger: '2600', product: 'intraday' }),
      with_({ orderType: 'gtt', trigger: '2400', limit: '2410', days: '30' }),
    ];
    for (const s of states) {
      const v = evaluateTicket(s, MARKET);
      expect(v.input, JSON.stringify(s)).not.toBeNull();
      expect(orderShapeError('buy', v.input!)).toBeNull();
    }
    const oco = evaluateTicket(
      with_({
        orderType: 'gtt',
        gttKind: 'oco',
        trigger: '2700',
        limit: '2690',
        stop: '2300',
        stopLimit: '2290',
      }),
      { ...MARKET, side: 'sell', held: 5 },
    );
    expect(orderShapeError('sell', oco.input!)).toBeNull();
  });
});
