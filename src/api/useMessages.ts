import { useCallback, useEffect, useState } from 'react';
import type { ChatView } from '../../workers/messages';
import { listen, worker } from './client';
import { useOnline } from './connection';

export type { ChatView } from '../../workers/messages';

/**
 * Customer-service chat data (SPEC §7). The list comes from the device while it is younger than 30
 * minutes (MESSAGES_TTL_MS) and is refetched after, or at once when the unread count grows. A
 * message written offline shows as pending and is sent when back online; a rejected one carries
 * `failed` (an i18n key) and can be retried or discarded.
 */
export function useMessages() {
  const [view, setView] = useState<ChatView | null>(null);
  const online = useOnline();

  useEffect(() => listen('chat', setView), []);

  const send = useCallback((body: string) => worker().sendMessage(body), []);
  const retry = useCallback((clientId: string) => worker().retryMessage(clientId), []);
  const discard = useCallback((clientId: string) => worker().discardMessage(clientId), []);
  const refresh = useCallback(() => worker().refreshMessages(), []);

  return {
    messages: view?.messages ?? [],
    pending: view?.pending ?? [],
    /** As-of of the list. */
    fetchedAt: view?.fetchedAt ?? null,
    stale: view === null ? false : view.stale || !online,
    loading: view === null,
    send,
    retry,
    discard,
    refresh,
  };
}
