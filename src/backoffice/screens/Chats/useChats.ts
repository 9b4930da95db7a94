import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { call } from '../../api';
import { useAction, useNow, useOps } from '../../hooks';
import { OPS_PATHS } from '../../paths';
import { useMe } from '../../session';

export type Box = 'mine' | 'unassigned' | 'all';
/** How long a customer may wait for a first reply before the timer turns late. */
export const TARGET = 5 * 60_000;
/** How often the open conversation and the list are read (bench:backoffice measures the delay). */
export const THREAD_POLL_MS = 1000;
const LIST_POLL_MS = 2000;
/** The customer's app is told "typing" at most this often while the draft changes. */
const TYPING_EVERY_MS = 2500;

/**
 * The inbox's list: which box (mine, unassigned, all), its conversations (polled), the one open
 * (from the route) and the one that has waited longest, to open first.
 */
export function useChats() {
  const me = useMe();
  const params = useParams();
  const navigate = useNavigate();
  const [box, setBox] = useState<Box>('all');
  const list = useOps('chats', { box }, LIST_POLL_MS);
  const now = useNow(1000);
  const rows = list.data ?? [];
  const oldest = rows
    .filter((c) => c.waitingSince !== null)
    .sort((a, b) => (a.waitingSince ?? 0) - (b.waitingSince ?? 0))[0];
  return {
    me,
    userId: params.userId ? Number(params.userId) : null,
    box,
    setBox,
    rows,
    loading: list.loading,
    error: list.error,
    now,
    /** Opens the conversation that has waited longest, if one waits. */
    openOldest: oldest ? () => navigate(OPS_PATHS.chat(oldest.userId)) : null,
  };
}

/**
 * One conversation (polled) and its decisions — reply, assign to me or unassign — through one
 * `useAction` (which is busy, the refusal); the draft, and "typing" told to the customer's app
 * while it changes.
 */
export function useThread(userId: number) {
  const me = useMe();
  const thread = useOps('chat', { userId }, THREAD_POLL_MS);
  const canned = useOps('canned', {});
  const now = useNow(1000);
  const action = useAction(thread.reload);
  const [draft, setDraft] = useState('');
  const typedAt = useRef(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const t = thread.data;
  const count = t?.messages.length ?? 0;

  useEffect(() => {
    if (count) end.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  function onDraft(text: string) {
    setDraft(text);
    if (text && Date.now() - typedAt.current > TYPING_EVERY_MS) {
      typedAt.current = Date.now();
      void call('chatTyping', { userId });
    }
  }

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const body = draft.trim();
    // Enter pressed again while a reply is on its way sends it once.
    if (!body || action.busy === 'send') return;
    if (!(await action.run('send', () => call('chatReply', { userId, body })))) return;
    setDraft('');
    typedAt.current = 0;
    input.current?.focus();
  }

  const assign = (staffId: number | null) =>
    void action.run('assign', () => call('chatAssign', { userId, staffId }));

  return {
    t,
    now,
    canned: canned.data ?? [],
    mineNow: t?.assignedTo?.id === me.id,
    assignedTo: t?.assignedTo ? (t.assignedTo.id === me.id ? 'you' : t.assignedTo.name) : null,
    draft,
    onDraft,
    send,
    assignToMe: () => assign(me.id),
    unassign: () => assign(null),
    /** Which decision is being sent: `send` or `assign`. */
    busy: action.busy,
    error: action.error,
    /** The reply box (focused again after a reply or a canned pick) and the log's end (scrolled to). */
    input,
    end,
  };
}

/** The customer beside a conversation (polled). */
export function useChatCustomer(userId: number) {
  return useOps('customer', { id: userId }, 15_000);
}
