import { useCallback, useEffect } from 'react';
import { listen, worker } from '../api/client';
import { useOnline } from '../api/connection';
import { useDeviceView } from './view';

/**
 * Customer-service chat data (SPEC §7). The list comes from the device while it is younger than 30
 * minutes (MESSAGES_TTL_MS) and is refetched after, or at once when the unread count grows: the
 * worker does that while a chat listens to it; the list, the messages waiting to be sent and their
 * age are read from the device store (`useDeviceView('chat')`, a live query). A message written
 * offline shows as pending and is sent when back online; a rejected one carries `failed` (an i18n
 * key) and can be retried or discarded.
 */
export function useMessages() {
  const view = useDeviceView('chat', null);
  const online = useOnline();

  // Listening tells the worker a chat is on screen: it keeps the list fresh meanwhile.
  useEffect(() => listen('chat', () => {}), []);

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
