import type { Kysely } from 'kysely';
import { fromMinor, rateToTicks } from '#shared/money';
import { IPO_STATUS } from '#shared/status';
import type { DB } from '../../db/schema';
import type { Deps } from '../../deps';
import { type Actor, audited } from '../../lib/audit-log';
import { usdRate } from '../../trading/fx';
import { setFxRate } from '../../trading/fx-rate';
import {
  type AllotmentResult,
  allotIpoIn,
  allotmentOf,
  IPO_OPEN,
  pendingApplications,
  setIpoStatus,
} from '../../trading/ipo';
import { proposeAllotment } from '../../trading/ipo-allotment';
import type { OpsCommand } from './command';
import { operatorActor } from './operator';

/**
 * The console's allotment, audited (its refunds point at the entry). As with payouts, one person
 * may allot up to PAYOUT_APPROVAL_ABOVE of applications' money; above it the console only
 * proposes the table, and a member of staff runs it in the back office (trading/ipo-allotment.ts:
 * never the proposer, never the console).
 */
async function allotAudited(
  deps: Deps,
  actor: Actor,
  ipoId: number,
  bps: number,
): Promise<AllotmentResult | { ipo: number; proposed: number; charged: string; waits: string }> {
  const charged = async (db: Kysely<DB>) =>
    (await pendingApplications(db, ipoId)).reduce((n, a) => n + allotmentOf(a, bps).value, 0);
  const above = (minor: number) => minor > deps.config.ops.payoutApprovalAbove;
  const before = await charged(deps.database.db);
  if (above(before)) {
    const proposal = await proposeAllotment(deps, actor, ipoId, (bps / 10_000).toString());
    return {
      ipo: ipoId,
      proposed: proposal.proposal?.id ?? 0,
      charged: fromMinor(before),
      waits: 'a second member of staff runs it in the back office (IPO allotment)',
    };
  }
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    // Applications that arrived since the check may take it above the threshold: asked again.
    if (above(await charged(trx))) throw new Error('the applications changed: run ipo:allot again');
    const done = await allotIpoIn(deps, trx, ipoId, bps);
    return {
      result: done,
      entry: { action: 'ipo:allot', targetType: 'ipo', targetId: ipoId, after: { ...done, ratioBps: bps } },
    };
  });
  return result;
}

function ipoId(arg: string | undefined): number {
  const id = Number(arg);
  if (!Number.isInteger(id) || id < 1) throw new Error('an IPO id is required');
  return id;
}

/** A ratio 0..1 written as a decimal ("0.5"), as basis points without binary rounding. */
function ratioBps(arg: string | undefined): number {
  if (arg === undefined) return 10_000;
  const m = /^(0|1)(?:\.(\d{1,4}))?$/.exec(arg.trim());
  const bps = m ? Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0')) : Number.NaN;
  if (!(bps >= 0 && bps <= 10_000)) throw new Error('ratio must be a decimal from 0 to 1, e.g. 0.5');
  return bps;
}

/** IPO allotment needs a human (DESIGN rule 4): list, allot, refund, and move an IPO's status. */
export const ipoCommands: OpsCommand[] = [
  {
    name: 'ipo:list',
    usage: 'ipo:list',
    summary: 'IPOs with their pending applications (count, shares, frozen amount)',
    mutates: false,
    async run(deps) {
      const { db } = deps.database;
      const ipos = await db.selectFrom('ipos').selectAll().orderBy('id').execute();
      const pending = await db
        .selectFrom('orders')
        .select((eb) => [
          'ref_id',
          eb.fn.countAll<number>().as('applications'),
          eb.fn.sum<number>('qty').as('shares'),
          eb.fn.sum<number>('price_all').as('frozen'),
        ])
        .where('kind', '=', 'ipo')
        .where('side', '=', 'buy')
        .where('status', '=', IPO_STATUS.pending)
        .groupBy('ref_id')
        .execute();
      return ipos.map((i) => {
        const p = pending.find((r) => r.ref_id === i.id);
        return {
          id: i.id,
          symbol: i.symbol,
          status: i.status,
          open: i.status === IPO_OPEN,
          pendingApplications: Number(p?.applications ?? 0),
          pendingShares: Number(p?.shares ?? 0),
          frozenMinor: Number(p?.frozen ?? 0),
        };
      });
    },
  },
  {
    name: 'ipo:allot',
    usage: 'ipo:allot <ipoId> [ratio]',
    summary: 'allot pending applications (ratio 0..1 of each, whole lots of 100; default 1), refund the rest',
    mutates: true,
    async run(deps, [id, ratio], actor) {
      return allotAudited(deps, operatorActor(deps, actor), ipoId(id), ratioBps(ratio));
    },
  },
  {
    name: 'ipo:refund',
    usage: 'ipo:refund <ipoId>',
    summary: 'refund every pending application of an IPO',
    mutates: true,
    async run(deps, [id], actor) {
      return allotAudited(deps, operatorActor(deps, actor), ipoId(id), 0);
    },
  },
  {
    name: 'ipo:status',
    usage: 'ipo:status <ipoId> <Forthcoming|Closed|Listed>',
    summary:
      "set an IPO's catalogue status (Closed stops applications; it shows Listed once the market lists it)",
    mutates: true,
    async run(deps, [id, status]) {
      await setIpoStatus(deps, ipoId(id), status ?? '');
      return { id: ipoId(id), status };
    },
  },
];

/** The USD rate (trading/fx.ts): what it is now and where from, and the operator's fallback. */
export const fxCommands: OpsCommand[] = [
  {
    name: 'rate:show',
    usage: 'rate:show',
    summary: 'the USD rate in the account currency now: live quote or configured, and whether it is fresh',
    mutates: false,
    async run(deps) {
      return usdRate(deps, deps.database.db);
    },
  },
  {
    name: 'rate:set',
    usage: 'rate:set <decimal, e.g. 88.25>',
    summary:
      'set the configured USD rate, the fallback while no live quote is fresh (for FX_RATE_MAX_AGE_MS)',
    mutates: true,
    async run(deps, [value], actor) {
      if (rateToTicks(value) === null)
        throw new Error('give the rate as a positive decimal with at most 4 places, e.g. 88.25');
      await setFxRate(deps, operatorActor(deps, actor), value ?? '');
      return usdRate(deps, deps.database.db);
    },
  },
];
