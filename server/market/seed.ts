import { BPS_SCALE, priceAtBps, priceToTicks } from '#shared/money';
import { BLOCK_DEFAULT_MIN_QTY } from '#shared/rules';
import { OFFER_STATUS } from '#shared/status';
import type { Deps } from '../deps';
import { DAY_MS } from './hours';
import { UNIVERSE } from './universe';

/**
 * The catalogue rows the business tables need: IPOs (dates around the first start's "today"),
 * block-trading / QIP items (funds: server/funds/seed.ts). Each table is filled only when empty, so an
 * operator's changes survive restarts. On every start the stored IPO listing dates are handed to
 * the market, so a listed IPO is quoted (and can be sold) from its listing date on.
 */

/** Offsets in days from now: application window and listing; the status follows from them. */
const IPO_PLAN: Array<{ start: number; end: number; listing: number; max: number }> = [
  { start: -1, end: 3, listing: 6, max: 2000 },
  { start: 0, end: 4, listing: 7, max: 5000 },
  { start: -7, end: -2, listing: 2, max: 3000 },
  { start: -20, end: -15, listing: -12, max: 2000 },
  { start: -2, end: 2, listing: 5, max: 1000 },
  { start: -30, end: -25, listing: -21, max: 5000 },
  { start: -6, end: -1, listing: 3, max: 1000 },
];

/** Each block/QIP item offers this many minimum lots in all (a block is a finite placement). */
const BLOCK_SUPPLY_LOTS = 20;

/**
 * Block trading (bulk) and QIP (finalize) items: symbol, the ask's premium over the market in basis
 * points, minimum quantity. A block deal sits in the block window (within ±1 % of the
 * market, trading/holdings.ts `inBlockWindow`, which holds every ask there at the time of the buy),
 * never a discount to resell: at or a little above the market when seeded.
 */
const BLOCK_PLAN: Array<[kind: 'bulk' | 'finalize', symbol: string, premiumBps: number, min: number]> = [
  ['bulk', 'RELIANCE.NS', 20, BLOCK_DEFAULT_MIN_QTY],
  ['bulk', 'TCS.NS', 10, BLOCK_DEFAULT_MIN_QTY],
  ['bulk', 'SBIN.NS', 30, 200],
  ['bulk', 'TATAMOTORS.NS', 0, BLOCK_DEFAULT_MIN_QTY],
  ['bulk', 'AAPL', 10, BLOCK_DEFAULT_MIN_QTY],
  ['bulk', 'NVDA', 25, BLOCK_DEFAULT_MIN_QTY],
  ['finalize', 'ADANIPORTS.NS', 40, BLOCK_DEFAULT_MIN_QTY],
  ['finalize', 'DLF.BO', 50, 500],
  ['finalize', 'IRCTC.BO', 20, BLOCK_DEFAULT_MIN_QTY],
  ['finalize', 'HAVELLS.BO', 15, BLOCK_DEFAULT_MIN_QTY],
  ['finalize', 'AMD', 30, BLOCK_DEFAULT_MIN_QTY],
  ['finalize', 'ORCL', 20, BLOCK_DEFAULT_MIN_QTY],
];

/** Indian issues are priced in whole rupees, US ones in cents. */
const issueDecimals = (region: string) => (region === 'IN' ? 0 : 2);

/** A book-built issue's band: about 5 % under the issue price (the band's top), same precision; in ticks. */
function bandLowTicks(issueTicks: number, region: string): number {
  return priceAtBps(issueTicks, 9_500, issueDecimals(region));
}

async function isEmpty(deps: Deps, table: 'ipos' | 'block_items'): Promise<boolean> {
  const row = await deps.database.db.selectFrom(table).select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

export async function seedMarket(deps: Deps): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();

  if (await isEmpty(deps, 'ipos')) {
    const candidates = UNIVERSE.filter((s) => s.ipo);
    const rows = candidates.slice(0, IPO_PLAN.length).map((spec, i) => {
      const plan = IPO_PLAN[i]!;
      const at = (days: number) => now + days * DAY_MS;
      // 88 % of the expected market, in whole rupees or cents.
      const issue = priceAtBps(priceToTicks(spec.base), 8_800, issueDecimals(spec.region));
      return {
        symbol: spec.symbol,
        company_name: spec.name,
        series: spec.exchange,
        status: plan.listing <= 0 ? 'Listed' : plan.end <= 0 ? 'Closed' : 'Forthcoming',
        issue_price: issue,
        min: 100,
        max: plan.max,
        issue_start_date: at(plan.start),
        issue_end_date: at(plan.end),
        listing_date: at(plan.listing),
        band_low: bandLowTicks(issue, spec.region),
        allotment_date: at(plan.end + 1),
      };
    });
    if (rows.length) await db.insertInto('ipos').values(rows).execute();
  }
  const ipos = await db.selectFrom('ipos').select(['symbol', 'listing_date']).execute();
  const known = new Set(UNIVERSE.map((s) => s.symbol));
  for (const ipo of ipos) {
    if (known.has(ipo.symbol)) deps.market.setListing(ipo.symbol, Number(ipo.listing_date));
  }

  // Facts added after the first seed (047): filled where still empty, never overwritten.
  for (const ipo of await db.selectFrom('ipos').selectAll().where('band_low', 'is', null).execute()) {
    const spec = UNIVERSE.find((s) => s.symbol === ipo.symbol);
    await db
      .updateTable('ipos')
      .set({
        band_low: bandLowTicks(ipo.issue_price, spec?.region ?? 'IN'),
        allotment_date: ipo.allotment_date ?? Number(ipo.issue_end_date) + DAY_MS,
      })
      .where('id', '=', ipo.id)
      .execute();
  }

  if (await isEmpty(deps, 'block_items')) {
    const rows = BLOCK_PLAN.flatMap(([kind, symbol, premiumBps, min]) => {
      const ins = deps.market.instrument(symbol);
      const q = deps.market.quote(symbol);
      if (!ins || !q) return [];
      return [
        {
          symbol: ins.symbol,
          kind,
          region: ins.region,
          price: priceAtBps(priceToTicks(q.price), BPS_SCALE + premiumBps, ins.decimals),
          min_qty: min,
          status: OFFER_STATUS.open,
          supply: min * BLOCK_SUPPLY_LOTS,
          sold: 0,
        },
      ];
    });
    if (rows.length) await db.insertInto('block_items').values(rows).execute();
  }
}
