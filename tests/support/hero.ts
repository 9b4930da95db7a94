import { sql } from 'kysely';
import { expect } from 'vitest';
import { toMinor } from '#shared/money';
import { IPO_STATUS, LOAN_STATE, STOCK_STATUS, WITHDRAW_STATUS } from '#shared/status';
import type { TestServer } from './server';

/**
 * The account's hero as an identity (DESIGN rule 8), for the property suites: the summary's lines
 * add up to its total, the total is user info's, each line is what a model of the rules expects,
 * and the money lines are what the ledger holds — available is the sum of the user's postings,
 * each reserved line the postings of the rows still holding that money, the fund line the
 * postings of purchases awaiting their NAV plus the units held at the NAV published.
 */

/** What a model of the rules expects each line to be, minor units. */
export interface HeroModel {
  available: number;
  orders: number;
  ipo: number;
  withdrawals: number;
  holdings: number;
  funds: number;
}

const minor = (m: string) => {
  const v = toMinor(m);
  if (v === null) throw new Error(`not money: ${m}`);
  return v;
};

/** The lines as the ledger (and the loans' own ledger) hold them. */
async function fromLedger(s: TestServer, userId: number) {
  const n = (v: unknown) => Number(v ?? 0);
  const row = await sql<Record<string, unknown>>`select
      (select coalesce(sum(amount), 0) from ledger where user_id = ${userId}) as available,
      (select coalesce(-sum(l.amount), 0) from ledger l join orders o on l.ref_type = 'order' and l.ref_id = o.id
        where l.user_id = ${userId} and o.user_id = ${userId} and o.kind = 'stock' and o.side = 'buy' and o.status = ${STOCK_STATUS.pending}) as orders,
      (select coalesce(-sum(l.amount), 0) from ledger l join orders o on l.ref_type = 'order' and l.ref_id = o.id
        where l.user_id = ${userId} and o.user_id = ${userId} and o.kind = 'ipo' and o.side = 'buy' and o.status = ${IPO_STATUS.pending}) as ipo,
      (select coalesce(-sum(l.amount), 0) from ledger l join withdrawals w on l.ref_type = 'withdrawal' and l.ref_id = w.id
        where l.user_id = ${userId} and w.user_id = ${userId} and w.status = ${WITHDRAW_STATUS.inProgress}) as withdrawals,
      (select coalesce(-sum(l.amount), 0) from ledger l join fund_orders f on l.ref_type = 'fund_order' and l.ref_id = f.id
        where l.user_id = ${userId} and f.user_id = ${userId} and f.side = 'buy' and f.status = 'active') as funds,
      (select coalesce(sum((p.units * fu.nav + 50000) / 100000), 0) from fund_positions p join funds fu on fu.id = p.fund_id
        where p.user_id = ${userId}) as fund_units,
      (select coalesce(sum(due), 0) from loans where user_id = ${userId} and status = ${LOAN_STATE.unpaid}) as loans`.execute(
    s.deps.database.db,
  );
  const r = row.rows[0]!;
  return {
    available: n(r.available),
    orders: n(r.orders),
    ipo: n(r.ipo),
    withdrawals: n(r.withdrawals),
    // Purchases awaiting their NAV (their postings) and units at the published NAV, HALF_UP per
    // fund as `unitsValue` (thousandths × ticks / 100,000 is paise).
    funds: n(r.funds) + n(r.fund_units),
    loans: n(r.loans),
  };
}

/** Checks one user's hero; `label` names the step in a failure. */
export async function expectHero(
  s: TestServer,
  user: { token: string; id: number },
  model: HeroModel,
  label: string,
): Promise<void> {
  const d = (await s.call('portfolioSummary', { token: user.token })).body.data;
  const h = d.hero;
  const lines = {
    available: minor(h.available),
    orders: minor(h.reserved.orders),
    ipo: minor(h.reserved.ipo),
    withdrawals: minor(h.reserved.withdrawals),
    holdings: minor(h.holdings),
    funds: minor(h.funds),
    loans: minor(h.loans),
  };
  const at = `${label}, user ${user.id}`;
  // The identity: the lines add up to the total, and the reserved parts to theirs.
  expect(minor(h.reserved.total), at).toBe(lines.orders + lines.ipo + lines.withdrawals);
  expect(minor(h.total), at).toBe(
    lines.available +
      lines.orders +
      lines.ipo +
      lines.withdrawals +
      lines.holdings +
      lines.funds -
      lines.loans,
  );
  expect(h.holdings, at).toBe(d.overall.value);
  // One truth: user info's total is the hero's.
  const info = (await s.call('userInfo', { token: user.token })).body.data;
  expect({ total: info.total, loan: info.loan }, at).toEqual({ total: h.total, loan: h.loans });
  // The ledger's: available is the sum of the postings, every other money line the postings of
  // the rows still holding that money; loans the loans' own ledger (the audit proves it).
  const { loans, ...ledger } = await fromLedger(s, user.id);
  const { holdings: _atMarket, loans: loanLine, ...money } = lines;
  expect(money, at).toEqual(ledger);
  expect(loanLine, at).toBe(loans);
  // The model's: every line but the loans, which accrue by the job's clock.
  const { loans: _due, ...modelled } = lines;
  expect(modelled, at).toEqual(model);
}
