import type { Context } from './context';

/**
 * The messages domain: customer-service chat (cached 30 minutes, outbox). A listener of the `chat`
 * topic is a chat on screen: the list is refreshed at once when stale (or when a reply came) and
 * checked every minute while one listens. Nothing is pushed: the screen reads the device store.
 */
export function messagesApi(ctx: Context) {
  const { messages } = ctx;
  ctx.onAnswer('unreadCount', (_input, data) => ctx.chat.heard(data.unread_count));
  let ttlTimer: ReturnType<typeof setInterval> | null = null;
  ctx.events.on('chat', {
    first: () => {
      void messages.load(ctx.chat.takeDirty()).then(() => messages.flush());
      ttlTimer ??= setInterval(() => void messages.load(), 60_000);
    },
    last: () => {
      if (ttlTimer) clearInterval(ttlTimer);
      ttlTimer = null;
    },
  });
  return {
    sendMessage(body: string): Promise<string> {
      return messages.write(body);
    },
    retryMessage: (clientId: string) => messages.retry(clientId),
    discardMessage: (clientId: string) => messages.discard(clientId),
    refreshMessages: () => messages.load(true),
    /** Loads the messages at app start unless the cached list is still fresh (SPEC §4). */
    prefetchMessages: () => messages.load(),
  };
}
