import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import {
  CUSTOMER_SERVICE_ROUTE,
  chatHistory,
  chatState,
  customerTyping,
  markRead,
  sendMessage,
} from '../content/chat';
import { newsArticle, newsPage } from '../content/news';
import { hotReads } from '../db/hot';
import { route } from '../lib/route';
import { ANSWERS } from './answers';

/** News and customer service (src/shared/contract/content.ts): each route hands its input to server/content/. */
export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  route(app, contract.newsList, ({ input }) => newsPage(deps, input));
  route(app, contract.newsArticle, ({ input }) => newsArticle(deps, input.id));
  route(app, contract.kefu, async () => CUSTOMER_SERVICE_ROUTE);
  route(app, contract.messageList, ({ user }) => chatHistory(deps, user.id));
  route(app, contract.messageSend, ({ input, user }) => sendMessage(deps, user.id, input));
  route(
    app,
    contract.unreadCount,
    async ({ user }) => ({ unread_count: await hotReads(deps.database).unreadCount(user.id) }),
    { answer: ANSWERS.unreadCount },
  );
  route(app, contract.messageRead, async ({ user }) => {
    await markRead(deps, user.id);
    return null;
  });
  route(app, contract.chatState, ({ user }) => chatState(deps, user.id));
  route(app, contract.chatTyping, ({ user }) => customerTyping(deps, user.id));
}
