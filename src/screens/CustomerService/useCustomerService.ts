import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { useMessages } from '../../device/useMessages';
import { POLL_MS } from '../../shared/rules';

/** The newest agent message not yet read, or null: what marking the chat read must cover. */
export function newestUnread(
  messages: Array<{ id: number; sender: string; read_at: number | null }>,
): number | null {
  let newest: number | null = null;
  for (const m of messages)
    if (m.sender === 'agent' && m.read_at === null && (newest === null || m.id > newest)) newest = m.id;
  return newest;
}

/** While the chat is open its live state is read this often: the agent typing, "Read" marks. */
export const CHAT_STATE_MS = 3000;
/** The agent is told "typing" at most this often while the draft changes. */
const TYPING_EVERY_MS = 3000;

/**
 * Customer-service chat (SPEC §2/§7). The list is the worker's 30-minute cache; watching the unread
 * count here (the floating button is hidden on this route) is what makes the worker refetch when an
 * agent replies. Opening the chat marks the agent's messages read, which clears the badge.
 */
export function useCustomerService() {
  const chat = useMessages();
  const unread = useWatch('unreadCount', {}, POLL_MS.unreadCount);
  // The open chat's live state: an agent typing, what an agent has read, a newer message.
  const live = useWatch('chatState', {}, CHAT_STATE_MS);
  const typedAt = useRef(0);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const marked = useRef(0);
  const count = unread.data?.unread_count ?? 0;
  const newest = newestUnread(chat.messages);
  const reloadUnread = unread.reload;
  const latest = live.data?.latest_id ?? 0;
  const newestShown = chat.messages.reduce((n, m) => Math.max(n, m.id), 0);
  const refresh = chat.refresh;

  useEffect(() => {
    // A message newer than the list shows (an agent's reply): fetch the list now, not at the next
    // unread poll.
    if (latest > newestShown && newestShown > 0) void refresh();
  }, [latest, newestShown, refresh]);

  useEffect(() => {
    // Mark read when the server counts unread replies, or the list shows one not yet marked. A
    // reply can be counted before the refetched list shows it; marking covers it all the same.
    const upTo = Math.max(newest ?? 0, marked.current);
    if (count === 0 && upTo === marked.current) return;
    marked.current = upTo;
    void call('messageRead', {}).then((r) => {
      if (r.ok) reloadUnread();
    });
  }, [count, newest, reloadUnread]);

  async function send(): Promise<void> {
    const body = draft.trim();
    if (body === '') {
      setError('errors.messageEmpty');
      return;
    }
    setError(null);
    setDraft('');
    await chat.send(body);
  }

  return {
    ...chat,
    draft,
    setDraft: (v: string) => {
      setError(null);
      setDraft(v);
      if (v.trim() && Date.now() - typedAt.current > TYPING_EVERY_MS) {
        typedAt.current = Date.now();
        void call('chatTyping', {});
      }
    },
    /** The newest of the user's messages an agent has read: it and those before show "Read". */
    readUpTo: live.data?.read_up_to ?? 0,
    agentTyping: live.data?.agent_typing ?? false,
    error,
    send,
  };
}
