import type { Kysely, Selectable } from 'kysely';
import type { ChatMessage, ChatState } from '#shared/contract/content';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import { withTx } from '../db/index';
import type { DB, MessagesTable } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import { notify } from '../notify/notify';

/** Customer-service chat: the user's messages, the operator's replies, read marks. */

/** Where the app's chat lives (SPEC `kefu`: a URL or an in-app route). */
export const CUSTOMER_SERVICE_ROUTE = '/customer-service';
/** The newest messages a chat shows; older ones stay in the database. */
const CHAT_HISTORY = 200;
/** Messages a user may send per minute: a chat, not a channel for flooding the operators. */
const CHAT_RATE_PER_MINUTE = 20;
/**
 * Messages a user may send that no reply has answered yet: the rows a chat keeps grow with the
 * operators' replies, not with how fast one account can type.
 */
export const CHAT_UNANSWERED_MAX = 30;

export const WELCOME =
  'Welcome to Bourse! This is customer service. Ask us anything about your account, deposits, withdrawals or trading — we usually reply within a few minutes.';

/**
 * The chat's welcome, written once per account by `createUser` in the transaction that creates it,
 * so no later start or session can send it again. Stored as read: a greeting is no reason for an
 * unread badge on every screen.
 */
export async function welcome(db: Kysely<DB>, userId: number, at: number): Promise<void> {
  await db
    .insertInto('messages')
    .values({ user_id: userId, sender: 'agent', body: WELCOME, client_id: null, read_at: at, created_at: at })
    .execute();
}

/** The automatic welcome, not an operator's words (the app and the back office both tell it apart). */
export const isWelcome = (m: { sender: string; body: string }) => m.sender === 'agent' && m.body === WELCOME;

function chatMessage(row: Selectable<MessagesTable>): ChatMessage {
  return {
    id: row.id,
    sender: row.sender,
    body: row.body,
    client_id: row.client_id,
    read_at: row.read_at,
    created_at: row.created_at,
    // The welcome is ours, not an operator's: the app says it in the user's language.
    ...(isWelcome(row) ? { text_key: 'chat.welcome' as const } : {}),
  };
}

export async function chatHistory(deps: Deps, userId: number): Promise<ChatMessage[]> {
  const rows = await deps.database.db
    .selectFrom('messages')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(CHAT_HISTORY)
    .execute();
  return rows.reverse().map(chatMessage);
}

/** A user's message; a resend with a `client_id` already stored answers the stored one. */
export async function sendMessage(
  deps: Deps,
  userId: number,
  input: ReqOf<typeof contract.messageSend>,
): Promise<ChatMessage> {
  const { db } = deps.database;
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
          .where('user_id', '=', userId)
          .where('client_id', '=', clientId)
          .executeTakeFirst();
  const before = await existing();
  if (before) return chatMessage(before);
  // Counted and written in one locked step (lib/caps.ts), so a burst cannot pass either limit.
  const row = await withTx(deps.database, async (trx) => {
    await lockUser(trx, deps.database.dialect, userId);
    const recent = await trx
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('sender', '=', 'user')
      .where('created_at', '>', now - 60_000)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= CHAT_RATE_PER_MINUTE) throw new ApiError('errors.tooManyAttempts', 429);
    const waiting = await trx
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('sender', '=', 'user')
      .where('id', '>', (eb) =>
        eb
          .selectFrom('messages as agent')
          .select((e) => e.fn.coalesce(e.fn.max('agent.id'), e.lit(0)).as('id'))
          .where('agent.user_id', '=', userId)
          .where('agent.sender', '=', 'agent'),
      )
      .executeTakeFirstOrThrow();
    if (Number(waiting.n) >= CHAT_UNANSWERED_MAX)
      throw new ApiError('errors.chatWaiting', 429, { max: CHAT_UNANSWERED_MAX });
    return trx
      .insertInto('messages')
      .values({ user_id: userId, sender: 'user', body, client_id: clientId, read_at: null, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  });
  if (row) return chatMessage(row);
  // Lost a race with the same resend: the other request stored it.
  const raced = await existing();
  if (!raced) throw new Error('message neither inserted nor found');
  return chatMessage(raced);
}

/** The operator's replies count as read once the user has the chat open. */
export async function markRead(deps: Deps, userId: number): Promise<void> {
  await deps.database.db
    .updateTable('messages')
    .set({ read_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('sender', '=', 'agent')
    .where('read_at', 'is', null)
    .execute();
}

/**
 * An agent's answer: the back office's inbox (inbox.ts, audited) and the console's
 * `chat:reply`. `db`: the caller's transaction, which also holds the reply's push (notify/notify.ts).
 */
export async function replyToChat(
  deps: Deps,
  userId: number,
  text: string,
  db: Kysely<DB> = deps.database.db,
): Promise<number> {
  const body = text.trim();
  if (!body || body.length > 2000) throw invalid('errors.messageEmpty');
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound();
  const row = await db
    .insertInto('messages')
    .values({
      user_id: userId,
      sender: 'agent',
      body,
      client_id: null,
      read_at: null,
      created_at: deps.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A push, not an inbox item: the chat's own unread count already tells the app.
  await notify(db, {
    userId,
    kind: 'chat',
    refId: row.id,
    symbol: '',
    params: { event: 'reply' },
    at: deps.clock.now(),
    inbox: false,
  });
  return row.id;
}

/** Typing shows on the other side for this long after the last keystroke signal. */
export const TYPING_MS = 6000;

/**
 * The customer is typing (the app says so every few seconds while the draft changes); answers
 * the chat's live state as `chatState` does.
 */
export async function customerTyping(deps: Deps, userId: number): Promise<ChatState> {
  const now = deps.clock.now();
  await deps.database.db
    .insertInto('chat_threads')
    .values({
      user_id: userId,
      assigned_to: null,
      assigned_at: null,
      customer_typing_at: now,
      agent_typing_at: null,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ customer_typing_at: now }))
    .execute();
  return chatState(deps, userId);
}

/**
 * What the open chat screen polls: whether an agent is typing, the newest of the customer's
 * messages an agent has read ("Read" under it and those before) and the newest message's id
 * (a newer one than the screen shows: it refetches the list).
 */
export async function chatState(deps: Deps, userId: number): Promise<ChatState> {
  const { db } = deps.database;
  const [thread, read, latest] = await Promise.all([
    db.selectFrom('chat_threads').select('agent_typing_at').where('user_id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_id', '=', userId)
      .where('sender', '=', 'user')
      .where('read_at', 'is not', null)
      .executeTakeFirst(),
    db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  const typingAt = thread?.agent_typing_at ?? null;
  return {
    agent_typing: typingAt !== null && deps.clock.now() - typingAt < TYPING_MS,
    read_up_to: Number(read?.id ?? 0),
    latest_id: Number(latest?.id ?? 0),
  };
}
