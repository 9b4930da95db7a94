import type { Kysely } from 'kysely';
import { FUND_STAMP_PPM, ppmOf, unitsFor, unitsValue } from '#shared/funds';
import type { DB } from '../db/schema';

/** What the ledger audit (server/wallet/audit.ts) lends this part: its checks of a row's postings. */
export interface AuditChecks {
  expect(
    type: 'fund_order',
    id: number,
    owner: number,
    rule: (got: (reason: string) => { count: number; sum: number }) => string | null,
  ): void;
  report(problem: string): void;
}

const exactly = (g: { count: number; sum: number }, count: number, sum: number, what: string) =>
  g.count === count && g.sum === sum
    ? null
    : `${what}: ${g.count} postings of ${g.sum}, want ${count} of ${sum}`;
const first = (...checks: (string | null)[]) => checks.find((c) => c !== null) ?? null;
const once = (amount: number) => (amount === 0 ? 0 : 1);

/**
 * Funds in the ledger audit: each order has exactly the postings its side and status imply, its
 * struck figures follow from its NAV by the rules (units from the amount less stamp duty, a
 * redemption's value, what it paid), and each position's units are what its struck orders
 * allotted less what they redeemed, its reserved units what its pending redemptions hold.
 */
export async function auditFunds(trx: Kysely<DB>, check: AuditChecks): Promise<void> {
  const orders = await trx.selectFrom('fund_orders').selectAll().execute();
  const units = new Map<string, { held: number; reserved: number }>();
  const tally = (o: { user_id: number; fund_id: number }) => {
    const key = `${o.user_id}:${o.fund_id}`;
    let t = units.get(key);
    if (!t) {
      t = { held: 0, reserved: 0 };
      units.set(key, t);
    }
    return t;
  };
  for (const o of orders) {
    const amount = Number(o.amount);
    const nav = o.nav === null ? null : Number(o.nav);
    const n = o.units === null ? 0 : Number(o.units);
    const done = o.status === 'completed';
    if (o.side === 'term') {
      const profit = Number(o.profit ?? 0);
      check.expect('fund_order', o.id, o.user_id, (got) =>
        first(
          done ? null : `a term order ${o.status}`,
          exactly(got('fundPurchase'), 1, -amount, 'purchase'),
          exactly(got('principal_returned'), 1, amount, 'principal'),
          exactly(got('fund_project_profit'), once(profit), profit, 'profit'),
        ),
      );
    } else if (o.side === 'buy') {
      const refund = o.status === 'cancelled' ? amount : 0;
      const stamp = Number(o.stamp_duty);
      let struck: string | null = null;
      if (done) {
        if (nav === null || stamp !== ppmOf(amount, FUND_STAMP_PPM) || n !== unitsFor(amount - stamp, nav))
          struck = `allotted ${n} units at ${nav} with stamp duty ${stamp} for ${amount}`;
        tally(o).held += n;
      }
      check.expect('fund_order', o.id, o.user_id, (got) =>
        first(
          struck,
          exactly(got('fundPurchase'), 1, -amount, 'purchase'),
          exactly(got('fundRefund'), once(refund), refund, 'refund'),
        ),
      );
    } else {
      const load = Number(o.exit_load);
      const stt = Number(o.stt);
      let value = 0;
      let struck: string | null = null;
      if (done) {
        value = nav === null ? 0 : unitsValue(n, nav);
        if (nav === null || amount !== value - load - stt || load < 0 || stt < 0)
          struck = `redeemed ${n} units at ${nav} paid ${amount} with exit load ${load} and STT ${stt}`;
        tally(o).held -= n;
      } else if (o.status === 'active') {
        tally(o).reserved += n;
      }
      check.expect('fund_order', o.id, o.user_id, (got) =>
        first(
          struck,
          exactly(got('fundRedemption'), once(value), value, 'redemption'),
          exactly(got('exitLoad'), once(done ? load : 0), done ? -load : 0, 'exit load'),
          exactly(got('transactionExpenses'), once(done ? stt : 0), done ? -stt : 0, 'STT'),
        ),
      );
    }
  }
  const positions = await trx.selectFrom('fund_positions').selectAll().execute();
  for (const p of positions) {
    const key = `${p.user_id}:${p.fund_id}`;
    const want = units.get(key) ?? { held: 0, reserved: 0 };
    units.delete(key);
    const held = Number(p.units);
    const reserved = Number(p.reserved_units);
    if (held !== want.held || reserved !== want.reserved)
      check.report(
        `fund position ${key}: ${held} units (${reserved} reserved), its orders say ${want.held} (${want.reserved})`,
      );
    if (held === 0 && Number(p.invested) !== 0)
      check.report(`fund position ${key}: no units but cost ${p.invested}`);
  }
  for (const [key, want] of units) {
    if (want.held !== 0 || want.reserved !== 0)
      check.report(`fund orders of ${key} hold units of no position`);
  }
}
