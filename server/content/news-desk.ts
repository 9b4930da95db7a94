import type { NewsDraft, NewsRow } from '#shared/backoffice';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { ApiError, conflict, invalid } from '../lib/errors';
import { newsImagePath, publishNews } from './news';
import { plainText, sanitizeArticle } from './sanitize';

/**
 * News written in the back office: previewed through the server's sanitiser (what is
 * shown is what is kept), published now or at a set time by the `news:scheduled` job, each audited.
 */

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
  const given = draft.img?.trim() || null;
  const img = given === null ? null : newsImagePath(given);
  if (given !== null && img === null) throw invalid('ops.errors.newsImage');
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
