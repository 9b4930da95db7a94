import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AllotmentPreview, IpoRow } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { IPO_STATUS } from '#shared/status';
import { assertClaim, assertMayCheck, type DecisionOptions, overrideOf } from '../approvals/people';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { allotIpoIn, allotmentOf, pendingApplications } from './ipo';

/**
 * An IPO's allotment: the table previewed at a ratio, proposed by one member and run by
 * another — as a payout's second approval: never the proposer, the console, or anyone the proposer
 * made (approvals/people.ts) — bound to the applications it was previewed from: any new, changed or withdrawn
 * application voids it. Each step audited.
 */

/** A ratio 0..1 written as a decimal ("0.5"), as basis points without binary rounding. */
export function ratioBps(text: string): number {
  const m = /^(0|1)(?:\.(\d{1,4}))?$/.exec(text.trim());
  const bps = m ? Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0')) : Number.NaN;
  if (!(bps >= 0 && bps <= 10_000)) throw invalid('ops.errors.ratio');
  return bps;
}
const ratioText = (bps: number) => (bps / 10_000).toFixed(4).replace(/0+$/, '').replace(/\.$/, '');

type Applications = Awaited<ReturnType<typeof pendingApplications>>;

/** What a proposal is bound to: the pending applications as they were, and the ratio. */
function allotmentBinding(apps: Applications, bps: number): string {
  const fields = apps.map((a) => [a.id, a.user_id, a.qty, a.price_all, a.rate]);
  return createHash('sha256')
    .update(JSON.stringify([bps, fields]))
    .digest('hex');
}

async function proposalOf(db: Kysely<DB>, ipoId: number, apps: Applications) {
  const p = await db
    .selectFrom('ipo_allotments')
    .selectAll()
    .where('ipo_id', '=', ipoId)
    .where('status', '=', 'proposed')
    .executeTakeFirst();
  if (!p) return null;
  return {
    id: p.id,
    ratio: ratioText(p.ratio_bps),
    proposedBy: p.proposed_by,
    proposedName: p.proposed_name,
    proposedAt: p.proposed_at,
    intact: p.binding === allotmentBinding(apps, p.ratio_bps),
  };
}

/** The allotment table at a ratio, as it would run now: per application, shares and money. */
export async function allotmentPreview(deps: Deps, ipoId: number, ratio: string): Promise<AllotmentPreview> {
  const bps = ratioBps(ratio);
  const { db } = deps.database;
  const ipo = await db.selectFrom('ipos').select(['id', 'symbol']).where('id', '=', ipoId).executeTakeFirst();
  if (!ipo) throw notFound();
  const apps = await pendingApplications(db, ipoId);
  const phones = new Map(
    apps.length
      ? (
          await db
            .selectFrom('users')
            .select(['id', 'phone'])
            .where(
              'id',
              'in',
              apps.map((a) => a.user_id),
            )
            .execute()
        ).map((u) => [u.id, u.phone])
      : [],
  );
  const totals = { applications: apps.length, applied: 0, allotted: 0, charged: 0, refund: 0 };
  const lines = apps.map((a) => {
    const { shares, value, refund } = allotmentOf(a, bps);
    totals.applied += a.qty;
    totals.allotted += shares;
    totals.charged += value;
    totals.refund += refund;
    return {
      orderId: a.id,
      userId: a.user_id,
      phone: phones.get(a.user_id) ?? '',
      applied: a.qty,
      allotted: shares,
      frozen: fromMinor(a.price_all),
      charged: fromMinor(value),
      refund: fromMinor(refund),
    };
  });
  return {
    ipoId,
    symbol: ipo.symbol,
    ratio: ratioText(bps),
    lines,
    totals: { ...totals, charged: fromMinor(totals.charged), refund: fromMinor(totals.refund) },
    proposal: await proposalOf(db, ipoId, apps),
  };
}

export async function ipoRows(deps: Deps): Promise<IpoRow[]> {
  const { db } = deps.database;
  const ipos = await db.selectFrom('ipos').selectAll().orderBy('issue_end_date').execute();
  const rows: IpoRow[] = [];
  for (const i of ipos) {
    const apps = await pendingApplications(db, i.id);
    rows.push({
      id: i.id,
      symbol: i.symbol,
      company: i.company_name,
      status: i.status,
      issueEnd: i.issue_end_date,
      pendingApplications: apps.length,
      pendingShares: apps.reduce((n, a) => n + a.qty, 0),
      frozen: fromMinor(apps.reduce((n, a) => n + a.price_all, 0)),
      proposal: await proposalOf(db, i.id, apps),
    });
  }
  return rows;
}

/** One member proposes the table (a newer proposal replaces a waiting one). */
export async function proposeAllotment(
  deps: Deps,
  actor: Actor,
  ipoId: number,
  ratio: string,
): Promise<AllotmentPreview> {
  const bps = ratioBps(ratio);
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const ipo = await trx.selectFrom('ipos').select('id').where('id', '=', ipoId).executeTakeFirst();
    if (!ipo) throw notFound();
    const apps = await pendingApplications(trx, ipoId);
    if (apps.length === 0) throw conflict('ops.errors.nothingToAllot');
    await trx
      .updateTable('ipo_allotments')
      .set({ status: 'void' })
      .where('ipo_id', '=', ipoId)
      .where('status', '=', 'proposed')
      .execute();
    const row = await trx
      .insertInto('ipo_allotments')
      .values({
        ipo_id: ipoId,
        ratio_bps: bps,
        binding: allotmentBinding(apps, bps),
        status: 'proposed',
        proposed_by: actor.key,
        proposed_name: actor.name,
        proposed_at: deps.clock.now(),
        run_by: null,
        run_name: null,
        run_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      result: undefined,
      entry: {
        action: 'ipo:propose',
        targetType: 'ipo',
        targetId: ipoId,
        after: { proposal: row.id, ratio: ratioText(bps), applications: apps.length },
      },
    };
  });
  return allotmentPreview(deps, ipoId, ratioText(bps));
}

/** Another member runs the proposed table, if the applications are still what it was made from. */
export async function runAllotment(
  deps: Deps,
  actor: Actor,
  ipoId: number,
  proposalId: number,
  options: DecisionOptions = {},
): Promise<{ allotted: number; refunded: number }> {
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const p = await trx
      .selectFrom('ipo_allotments')
      .selectAll()
      .where('id', '=', proposalId)
      .where('ipo_id', '=', ipoId)
      .executeTakeFirst();
    if (p?.status !== 'proposed') throw conflict('ops.errors.notWaiting');
    await assertMayCheck(trx, deps, p.proposed_by, actor);
    const override = overrideOf(await assertClaim(trx, ['ipo'], String(ipoId), actor, options.override));
    const apps = await pendingApplications(trx, ipoId);
    if (p.binding !== allotmentBinding(apps, p.ratio_bps)) throw conflict('ops.errors.approvalVoid');
    const claimed = await trx
      .updateTable('ipo_allotments')
      .set({ status: 'run', run_by: actor.key, run_name: actor.name, run_at: deps.clock.now() })
      .where('id', '=', p.id)
      .where('status', '=', 'proposed')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
    const done = await allotIpoIn(deps, trx, ipoId, p.ratio_bps);
    return {
      result: { allotted: done.allotted, refunded: done.refunded },
      entry: {
        action: 'ipo:allot',
        targetType: 'ipo',
        targetId: ipoId,
        before: {
          proposal: p.id,
          proposedBy: p.proposed_by,
          pending: apps.length,
          status: IPO_STATUS.pending,
        },
        after: {
          ...done,
          refundedMinor: undefined,
          refunded: fromMinor(done.refundedMinor),
          ratio: ratioText(p.ratio_bps),
          ...override,
        },
      },
    };
  });
  return result;
}
