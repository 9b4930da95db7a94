import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  AllotmentPreview,
  FxPreview,
  FxState,
  IpoRow,
  LoanRow,
  NewsDraft,
  NewsRow,
} from '#shared/backoffice';
import {
  fromMinor,
  PRICE_SCALE,
  priceToTicks,
  rateToTicks,
  ticksToPrice,
  tradeValueMinor,
} from '#shared/money';
import { LOAN_STATE } from '#shared/status';
import { publishNews } from '../content/news';
import { plainText, sanitizeArticle } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { setConfiguredRateIn, usdRate } from '../trading/fx';
import { allotIpoIn, allotmentOf, pendingApplications } from '../trading/ipo';
import { currencyOf, IPO } from '../trading/orders';
import { creditOf } from '../wallet/credit';
import { disburseLoan, rejectLoan } from '../wallet/settlement';

/**
 * The other human decisions (issue 33 §7), each audited: loans approved (disbursed) or rejected with
 * a reason; an IPO's allotment table previewed, proposed by one member and run by another (bound to
 * the applications it was previewed from: any new, changed or withdrawn application voids it); the
 * USD rate previewed with its effect before it is set; news written with a preview, sanitised on the
 * server, published now or at a set time (the `news:scheduled` job). The console's commands for the
 * same decisions run these functions.
 */

// ─── Loans ──────────────────────────────────────────────────────────────────────────────────────

export async function loanRows(deps: Deps): Promise<LoanRow[]> {
  const { db } = deps.database;
  const rows = await db
    .selectFrom('loans')
    .innerJoin('users', 'users.id', 'loans.user_id')
    .select([
      'loans.id',
      'loans.user_id',
      'users.phone',
      'users.credit_score',
      'loans.count',
      'loans.created_at',
    ])
    .where('loans.state', '=', LOAN_STATE.applying)
    .orderBy('loans.id')
    .limit(200)
    .execute();
  return Promise.all(
    rows.map(async (l) => ({
      id: l.id,
      userId: l.user_id,
      phone: l.phone,
      amount: fromMinor(l.count),
      creditScore: l.credit_score,
      openLoans: fromMinor((await creditOf(db, l.user_id)).dueMinor),
      askedAt: l.created_at,
    })),
  );
}

async function loanOf(trx: Kysely<DB>, id: number) {
  const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!loan) throw notFound();
  return loan;
}

export async function approveLoan(deps: Deps, actor: Actor, id: number): Promise<void> {
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    if (!(await disburseLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: {
        action: 'loan:approve',
        targetType: 'loan',
        targetId: id,
        customerId: loan.user_id,
        before: { state: loan.state, amount: fromMinor(loan.count) },
        after: { state: LOAN_STATE.unpaid },
      },
    };
  });
}

export async function declineLoan(deps: Deps, actor: Actor, id: number, text: string): Promise<void> {
  const reason = plainText(text).slice(0, 500);
  if (!reason) throw invalid('ops.errors.reasonText');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    if (!(await rejectLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: {
        action: 'loan:reject',
        targetType: 'loan',
        targetId: id,
        customerId: loan.user_id,
        before: { state: loan.state, amount: fromMinor(loan.count) },
        after: { state: LOAN_STATE.rejected },
        reason,
      },
    };
  });
}

// ─── IPO allotment ──────────────────────────────────────────────────────────────────────────────

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
  const fields = apps.map((a) => [a.id, a.user_id, a.count, a.price_all, a.rate]);
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
    totals.applied += a.count;
    totals.allotted += shares;
    totals.charged += value;
    totals.refund += refund;
    return {
      orderId: a.id,
      userId: a.user_id,
      phone: phones.get(a.user_id) ?? '',
      applied: a.count,
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
      pendingShares: apps.reduce((n, a) => n + a.count, 0),
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
): Promise<{ allotted: number; refunded: number }> {
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const p = await trx
      .selectFrom('ipo_allotments')
      .selectAll()
      .where('id', '=', proposalId)
      .where('ipo_id', '=', ipoId)
      .executeTakeFirst();
    if (p?.status !== 'proposed') throw conflict('ops.errors.notWaiting');
    if (p.proposed_by === actor.key) throw new ApiError('ops.errors.ownAction', 403);
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
        before: { proposal: p.id, proposedBy: p.proposed_by, pending: apps.length, status: IPO.pending },
        after: {
          ...done,
          refundedMinor: undefined,
          refunded: fromMinor(done.refundedMinor),
          ratio: ratioText(p.ratio_bps),
        },
      },
    };
  });
  return result;
}

// ─── FX rate ────────────────────────────────────────────────────────────────────────────────────

const rateText = (ticks: number | null) => (ticks === null ? null : ticksToPrice(ticks).toFixed(4));

export async function fxState(deps: Deps): Promise<FxState> {
  const { db } = deps.database;
  const rate = await usdRate(deps, db);
  const rows = await db
    .selectFrom('config')
    .select(['tag', 'value'])
    .where('tag', 'in', ['rate', 'rate_set_at'])
    .execute();
  const configured = rows.find((r) => r.tag === 'rate')?.value ?? null;
  const setAt = Number(rows.find((r) => r.tag === 'rate_set_at')?.value ?? Number.NaN);
  return {
    source: rate.source ?? 'none',
    rate: rateText(rate.ticks),
    fresh: rate.fresh,
    configured,
    configuredAt: Number.isSafeInteger(setAt) ? setAt : null,
  };
}

/** The rate before it is set: what US$1,000 and the customers' US holdings are worth at each. */
export async function fxPreview(deps: Deps, next: string): Promise<FxPreview> {
  const ticks = rateToTicks(next);
  if (ticks === null) throw invalid('ops.errors.rate');
  const { db } = deps.database;
  const current = await usdRate(deps, db);
  const positions = await db.selectFrom('positions').select(['symbol', 'qty']).where('qty', '>', 0).execute();
  let usdTicks: Array<{ price: number; qty: number }> = [];
  usdTicks = positions.flatMap((p) => {
    if (currencyOf(deps, p.symbol, '') !== 'USD') return [];
    const quote = deps.market.quote(p.symbol);
    return quote ? [{ price: priceToTicks(quote.price), qty: p.qty }] : [];
  });
  const worth = (rate: number) => usdTicks.reduce((n, h) => n + tradeValueMinor(h.price, h.qty, rate), 0);
  const example = (rate: number) => fromMinor(tradeValueMinor(1000 * PRICE_SCALE, 1, rate));
  return {
    current: await fxState(deps),
    next: rateText(ticks)!,
    example: {
      usd: '1000.00',
      now: current.ticks === null ? null : example(current.ticks),
      next: example(ticks),
    },
    holdings: {
      now: current.ticks === null ? null : fromMinor(worth(current.ticks)),
      next: fromMinor(worth(ticks)),
    },
    changeBps: current.ticks === null ? null : Math.round(((ticks - current.ticks) * 10_000) / current.ticks),
  };
}

export async function setFxRate(deps: Deps, actor: Actor, value: string): Promise<FxState> {
  if (rateToTicks(value) === null) throw invalid('ops.errors.rate');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await trx
      .selectFrom('config')
      .select(['tag', 'value'])
      .where('tag', 'in', ['rate', 'rate_set_at'])
      .execute();
    await setConfiguredRateIn(deps, trx, value);
    return {
      result: undefined,
      entry: {
        action: 'fx:set',
        targetType: 'config',
        targetId: 'rate',
        before: Object.fromEntries(before.map((r) => [r.tag, r.value])),
        after: { rate: value.trim() },
      },
    };
  });
  return fxState(deps);
}

// ─── News ───────────────────────────────────────────────────────────────────────────────────────

/** An article as it will be stored: the server's sanitiser is the preview (what is shown is what is kept). */
export function articleOf(draft: NewsDraft): {
  title: string;
  subhead: string;
  html: string;
  img: string | null;
} {
  const title = plainText(draft.title);
  const subhead = plainText(draft.subhead);
  const html = sanitizeArticle(draft.html);
  if (!title || title.length > 200) throw invalid('ops.errors.newsTitle');
  if (subhead.length > 400) throw invalid('ops.errors.newsSubhead');
  if (!html.trim()) throw invalid('ops.errors.newsEmpty');
  const img = draft.img?.trim() || null;
  if (img !== null && !/^(\/[\w./-]+|https:\/\/[^\s"'<>]+)$/.test(img)) throw invalid('ops.errors.newsImage');
  return { title, subhead, html, img };
}

type Scheduled = {
  id: number;
  title: string;
  subhead: string;
  publish_at: number;
  published_id: number | null;
  cancelled_at: number | null;
};
const newsRow = (r: Scheduled): NewsRow => ({
  id: r.id,
  title: r.title,
  subhead: r.subhead,
  publishAt: r.publish_at,
  state: r.cancelled_at !== null ? 'cancelled' : r.published_id !== null ? 'published' : 'scheduled',
  publishedId: r.published_id,
});

export async function newsRows(deps: Deps): Promise<NewsRow[]> {
  const rows = await deps.database.db
    .selectFrom('news_scheduled')
    .selectAll()
    .orderBy('publish_at', 'desc')
    .limit(100)
    .execute();
  return rows.map(newsRow);
}

/** Publishes now, or keeps the article for the `news:scheduled` job to publish at `publishAt`. */
export async function publishDraft(deps: Deps, actor: Actor, draft: NewsDraft): Promise<NewsRow> {
  const article = articleOf(draft);
  const now = deps.clock.now();
  const at = draft.publishAt && draft.publishAt > now ? draft.publishAt : now;
  if (actor.staffId === null) throw new ApiError('ops.errors.forbidden', 403);
  const staffId = actor.staffId;
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const publishedId = at <= now ? await publishNews(deps, article, trx) : null;
    const row = await trx
      .insertInto('news_scheduled')
      .values({
        title: article.title,
        subhead: article.subhead,
        img: article.img,
        content: article.html,
        publish_at: at,
        created_by: staffId,
        created_at: now,
        published_id: publishedId,
        cancelled_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      result: newsRow(row),
      entry: {
        action: publishedId === null ? 'news:schedule' : 'news:publish',
        targetType: 'news',
        targetId: publishedId ?? `scheduled:${row.id}`,
        after: { title: article.title, publishAt: at },
      },
    };
  });
  return result;
}

export async function cancelDraft(deps: Deps, actor: Actor, id: number): Promise<void> {
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const r = await trx
      .updateTable('news_scheduled')
      .set({ cancelled_at: deps.clock.now() })
      .where('id', '=', id)
      .where('published_id', 'is', null)
      .where('cancelled_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: { action: 'news:cancel', targetType: 'news', targetId: `scheduled:${id}` },
    };
  });
}

/** The job's side: articles whose time has come are published, each with its audit entry. */
export async function publishDue(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.database.db
    .selectFrom('news_scheduled')
    .selectAll()
    .where('publish_at', '<=', now)
    .where('published_id', 'is', null)
    .where('cancelled_at', 'is', null)
    .orderBy('publish_at')
    .limit(20)
    .execute();
  const system: Actor = { key: 'system', name: 'scheduler', role: null, staffId: null };
  for (const d of due) {
    await audited(deps.database, system, deps.clock.now, async (trx) => {
      const id = await publishNews(
        deps,
        { title: d.title, subhead: d.subhead, html: d.content, img: d.img },
        trx,
      );
      const r = await trx
        .updateTable('news_scheduled')
        .set({ published_id: id })
        .where('id', '=', d.id)
        .where('published_id', 'is', null)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
      return {
        result: undefined,
        entry: {
          action: 'news:publish',
          targetType: 'news',
          targetId: id,
          after: { scheduled: d.id, by: d.created_by },
        },
      };
    }).catch((err: unknown) => {
      // Cancelled or published by another run meanwhile: nothing to do.
      if (!(err instanceof ApiError)) throw err;
    });
  }
  return due.length;
}
