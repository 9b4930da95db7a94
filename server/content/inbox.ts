import { type Kysely, sql } from 'kysely';
import type { ChatLine, ChatSummary, ChatThread } from '#shared/backoffice';
import { nameOf, namesOf } from '../account/customer-names';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { notFound } from '../lib/errors';
import { isWelcome, replyToChat, TYPING_MS } from './chat';

/**
 * The agents' chat inbox: every customer's conversation with its assignment, the
 * time the customer has waited since their first unanswered message, unread counts; a thread
 * opened by an agent marks the customer's messages read (the customer's app shows "Read"); typing
 * both ways (`chat_threads`, so every instance sees it); replies and assignments are audited.
 * Customer text is data: the back office renders it as text, never as markup.
 */

const THREAD_MESSAGES = 200;
const INBOX_ROWS = 200;

interface Aggregate {
  user_id: number;
  last_id: number;
  last_agent_id: number | null;
  unread: number | string;
  waiting_since: number | string | null;
}

/** Every conversation with a customer message, newest activity first; `box` narrows it. */
export async function waitingChats(
  db: Kysely<DB>,
  box: 'mine' | 'unassigned' | 'all' = 'all',
  staffId?: number | null,
): Promise<ChatSummary[]> {
  // Per customer: the newest message, the newest reply, unread customer messages, and the first
  // customer message after the newest reply (what the customer has been waiting on since).
  const { rows } = await sql<Aggregate>`
    select m.user_id,
      max(m.id) as last_id,
      max(case when m.sender = 'agent' then m.id end) as last_agent_id,
      sum(case when m.sender = 'user' and m.read_at is null then 1 else 0 end) as unread,
      min(case when m.sender = 'user' and m.id > coalesce(
        (select max(a.id) from messages a where a.user_id = m.user_id and a.sender = 'agent'), 0)
        then m.created_at end) as waiting_since
    from messages m
    group by m.user_id
    having sum(case when m.sender = 'user' then 1 else 0 end) > 0
    order by max(m.id) desc
    limit ${INBOX_ROWS}`.execute(db);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.user_id);
  const lastIds = rows.map((r) => Number(r.last_id));
  const [users, names, last, threads] = await Promise.all([
    db.selectFrom('users').select(['users.id', 'users.phone']).where('users.id', 'in', ids).execute(),
    namesOf(db, ids),
    db
      .selectFrom('messages')
      .select(['id', 'body', 'sender', 'created_at'])
      .where('id', 'in', lastIds)
      .execute(),
    db
      .selectFrom('chat_threads')
      .leftJoin('staff', 'staff.id', 'chat_threads.assigned_to')
      .select(['chat_threads.user_id', 'staff.id as staff_id', 'staff.name'])
      .where('chat_threads.user_id', 'in', ids)
      .execute(),
  ]);
  const userOf = new Map(users.map((u) => [u.id, u]));
  const lastOf = new Map(last.map((m) => [m.id, m]));
  const threadOf = new Map(threads.map((t) => [t.user_id, t]));
  const all = rows.map((r): ChatSummary => {
    const m = lastOf.get(Number(r.last_id));
    const t = threadOf.get(r.user_id);
    return {
      userId: r.user_id,
      phone: userOf.get(r.user_id)?.phone ?? '',
      name: names.get(r.user_id)?.name ?? null,
      last: (m?.body ?? '').slice(0, 140),
      lastAt: m?.created_at ?? 0,
      lastSender: m?.sender ?? 'user',
      waitingSince: r.waiting_since === null ? null : Number(r.waiting_since),
      assignedTo: t?.staff_id ? { id: t.staff_id, name: t.name ?? '' } : null,
      unread: Number(r.unread),
    };
  });
  if (box === 'mine') return all.filter((c) => c.assignedTo !== null && c.assignedTo.id === staffId);
  if (box === 'unassigned') return all.filter((c) => c.assignedTo === null);
  return all;
}

function line(m: {
  id: number;
  sender: string;
  body: string;
  created_at: number;
  read_at: number | null;
}): ChatLine {
  return {
    id: m.id,
    sender: m.sender as ChatLine['sender'],
    body: m.body,
    at: m.created_at,
    readAt: m.read_at,
    automatic: isWelcome(m),
  };
}

/**
 * How long the customer waited for the first reply of the latest answered exchange: from the first
 * customer message after a reply to the next reply (null if nothing was ever answered).
 */
export function firstReplyMs(messages: ChatLine[]): number | null {
  let askedAt: number | null = null;
  let answered: number | null = null;
  for (const m of messages) {
    if (m.sender === 'user') askedAt ??= m.at;
    else if (askedAt !== null) {
      answered = m.at - askedAt;
      askedAt = null;
    }
  }
  return answered;
}

/** A conversation as the agent opens it; the customer's messages count as read from now on. */
export async function chatThread(deps: Deps, userId: number): Promise<ChatThread> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const user = await db
    .selectFrom('users')
    .select(['id', 'phone'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound();
  await db
    .updateTable('messages')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('sender', '=', 'user')
    .where('read_at', 'is', null)
    .execute();
  const [rows, thread] = await Promise.all([
    db
      .selectFrom('messages')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(THREAD_MESSAGES)
      .execute(),
    db
      .selectFrom('chat_threads')
      .leftJoin('staff', 'staff.id', 'chat_threads.assigned_to')
      .select(['chat_threads.customer_typing_at', 'staff.id as staff_id', 'staff.name'])
      .where('chat_threads.user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  const messages = rows.reverse().map(line);
  let waitingSince: number | null = null;
  for (const m of messages) {
    if (m.sender === 'agent') waitingSince = null;
    else waitingSince ??= m.at;
  }
  return {
    userId,
    phone: user.phone,
    name: (await nameOf(deps.database.db, userId)).name,
    messages,
    assignedTo: thread?.staff_id ? { id: thread.staff_id, name: thread.name ?? '' } : null,
    customerTyping: thread?.customer_typing_at != null && now - thread.customer_typing_at < TYPING_MS,
    waitingSince,
    firstReplyMs: firstReplyMs(messages),
  };
}

async function upsertThread(
  db: Kysely<DB>,
  userId: number,
  set: Partial<{ assigned_to: number | null; assigned_at: number | null; agent_typing_at: number | null }>,
) {
  await db
    .insertInto('chat_threads')
    .values({
      user_id: userId,
      assigned_to: null,
      assigned_at: null,
      customer_typing_at: null,
      agent_typing_at: null,
      ...set,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
    .execute();
}

/** An agent's reply (audited with its text); an unassigned chat becomes the replier's. */
export async function replyAs(deps: Deps, actor: Actor, userId: number, body: string): Promise<ChatLine> {
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const id = await replyToChat(deps, userId, body, trx);
    const row = await trx.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const thread = await trx
      .selectFrom('chat_threads')
      .select('assigned_to')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    await upsertThread(trx, userId, {
      agent_typing_at: null,
      ...(actor.staffId !== null && !thread?.assigned_to
        ? { assigned_to: actor.staffId, assigned_at: row.created_at }
        : {}),
    });
    return {
      result: line(row),
      entry: {
        action: 'chat:reply',
        targetType: 'chat',
        targetId: userId,
        customerId: userId,
        after: { messageId: id, body: row.body },
      },
    };
  });
  return result;
}

/** Assigns a conversation to a member, or unassigns it (null). */
export async function assignChat(
  deps: Deps,
  actor: Actor,
  userId: number,
  staffId: number | null,
): Promise<void> {
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound();
    if (staffId !== null) {
      const member = await trx
        .selectFrom('staff')
        .select('id')
        .where('id', '=', staffId)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (!member) throw notFound();
    }
    const before = await trx
      .selectFrom('chat_threads')
      .select('assigned_to')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    await upsertThread(trx, userId, {
      assigned_to: staffId,
      assigned_at: staffId === null ? null : deps.clock.now(),
    });
    return {
      result: undefined,
      entry: {
        action: 'chat:assign',
        targetType: 'chat',
        targetId: userId,
        customerId: userId,
        before: { staffId: before?.assigned_to ?? null },
        after: { staffId },
      },
    };
  });
}

/** The agent is typing in this conversation (the customer's app shows it for a few seconds). */
export async function agentTyping(deps: Deps, userId: number): Promise<void> {
  const user = await deps.database.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound();
  await upsertThread(deps.database.db, userId, { agent_typing_at: deps.clock.now() });
}

export async function cannedReplies(deps: Deps) {
  return deps.database.db
    .selectFrom('canned_replies')
    .select(['id', 'title', 'body'])
    .orderBy('id')
    .execute();
}
