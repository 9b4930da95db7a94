import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { ChatMessage } from '../../src/shared/contract/content';
import { contract } from '../../src/shared/contract/index';
import { PAGE_SIZE } from '../../src/shared/rules';
import { hotReads } from '../db/hot';
import type { MessagesTable } from '../db/schema';
import { ApiError, invalid, notFound } from '../lib/errors';
import { newsCache } from '../lib/news-cache';
import { route } from '../lib/route';

/** Where the app's chat lives (SPEC `kefu`: a URL or an in-app route). */
export const CUSTOMER_SERVICE_ROUTE = '/customer-service';
/** The newest messages a chat shows; older ones stay in the database. */
export const CHAT_HISTORY = 200;
/** Messages a user may send per minute: a chat, not a channel for flooding the operators. */
export const CHAT_RATE_PER_MINUTE = 20;

export function chatMessage(row: Selectable<MessagesTable>): ChatMessage {
  return {
    id: row.id,
    sender: row.sender,
    body: row.body,
    client_id: row.client_id,
    read_at: row.read_at,
    created_at: row.created_at,
  };
}

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;

  const news = newsCache(deps.database);
  route(app, contract.newsList, async ({ input }) => {
    const limit = input.limit ?? PAGE_SIZE;
    const page = input.page ?? 1;
    return news.page(page, limit, async () => {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('news')
          .select(['id', 'title', 'subhead', 'img', 'created_at', 'updated_at'])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('news')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, count: Number(total.n) };
    });
  });

  route(app, contract.newsArticle, async ({ input }) => {
    const row = await db.selectFrom('news').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  });

  route(app, contract.kefu, async () => ({ url: CUSTOMER_SERVICE_ROUTE }));

  route(app, contract.messageList, async ({ user }) => {
    const rows = await db
      .selectFrom('messages')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .limit(CHAT_HISTORY)
      .execute();
    return rows.reverse().map(chatMessage);
  });

  route(app, contract.messageSend, async ({ input, user }) => {
    const body = input.message.trim();
    if (body === '') throw invalid('errors.messageEmpty');
    const clientId = input.client_id?.trim() || null;
    const now = deps.clock.now();
    const existing = async () =>
      clientId === null
        ? undefined
        : db
            .selectFrom('messages')
            .selectAll()
            .where('user_id', '=', user.id)
            .where('client_id', '=', clientId)
            .executeTakeFirst();
    // A resend of a message already stored (same client_id) answers the stored one.
    const before = await existing();
    if (before) return chatMessage(before);
    const recent = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', user.id)
      .where('sender', '=', 'user')
      .where('created_at', '>', now - 60_000)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= CHAT_RATE_PER_MINUTE) throw new ApiError('errors.tooManyAttempts', 429);
    const row = await db
      .insertInto('messages')
      .values({ user_id: user.id, sender: 'user', body, client_id: clientId, read_at: null, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return chatMessage(row);
    // Lost a race with the same resend: the other request stored it.
    const raced = await existing();
    if (!raced) throw new Error('message neither inserted nor found');
    return chatMessage(raced);
  });

  route(app, contract.unreadCount, async ({ user }) => ({
    unread_count: await hotReads(deps.database).unreadCount(user.id),
  }));

  route(app, contract.messageRead, async ({ user }) => {
    await db
      .updateTable('messages')
      .set({ read_at: deps.clock.now() })
      .where('user_id', '=', user.id)
      .where('sender', '=', 'agent')
      .where('read_at', 'is', null)
      .execute();
    return null;
  });
}
