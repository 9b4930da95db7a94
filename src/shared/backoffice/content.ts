/** Content: the news desk and the chat inbox (server/content/news-desk.ts, inbox.ts). */

import type { Static } from '@sinclair/typebox';
import * as Type from '@sinclair/typebox';
import { Epoch, OneOf, RowId, Strict, Text } from '../contract/schemas';
import { ById, ByUser, Empty, ops } from './define';

export interface NewsRow {
  id: number;
  title: string;
  subhead: string;
  publishAt: number;
  state: 'scheduled' | 'published' | 'cancelled';
  publishedId: number | null;
}

export interface ChatLine {
  id: number;
  sender: 'user' | 'agent';
  body: string;
  at: number;
  readAt: number | null;
  /** The account's automatic welcome, written by the server, not by a member of staff. */
  automatic: boolean;
}
export interface ChatSummary {
  userId: number;
  phone: string;
  name: string | null;
  last: string;
  lastAt: number;
  lastSender: 'user' | 'agent';
  /** The oldest customer message since the last reply (null: answered). */
  waitingSince: number | null;
  assignedTo: { id: number; name: string } | null;
  unread: number;
}
export interface ChatThread {
  userId: number;
  phone: string;
  name: string | null;
  messages: ChatLine[];
  assignedTo: { id: number; name: string } | null;
  customerTyping: boolean;
  waitingSince: number | null;
  /** Seconds from the conversation's first unanswered message to the first reply, once replied. */
  firstReplyMs: number | null;
}

const Optional = Type.Optional;
const Draft = Strict({
  title: Text(300),
  subhead: Type.String({ maxLength: 600 }),
  html: Text(100_000),
  img: Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  /** Epoch ms; absent or past: now. */
  publishAt: Optional(Type.Union([Epoch, Type.Null()])),
});
export type NewsDraft = Static<typeof Draft>;

export const contentOps = {
  news: ops<NewsRow[]>()({ method: 'GET', path: '/news', cap: 'news', req: Empty }),
  newsPreview: ops<{ title: string; subhead: string; html: string }>()({
    method: 'POST',
    path: '/news/preview',
    cap: 'news',
    req: Draft,
  }),
  newsPublish: ops<NewsRow>()({ method: 'POST', path: '/news', cap: 'news', req: Draft }),
  newsCancel: ops<null>()({ method: 'POST', path: '/news/cancel', cap: 'news', req: ById }),

  chats: ops<ChatSummary[]>()({
    method: 'GET',
    path: '/chats',
    cap: 'chat',
    req: Strict({ box: OneOf(['mine', 'unassigned', 'all']) }),
  }),
  chat: ops<ChatThread>()({
    method: 'GET',
    path: '/chats/thread',
    cap: 'chat',
    req: Strict({ userId: RowId, after: Optional(Type.Integer({ minimum: 0 })) }),
  }),
  chatReply: ops<ChatLine>()({
    method: 'POST',
    path: '/chats/reply',
    cap: 'chat',
    req: Strict({ userId: RowId, body: Text(2000) }),
  }),
  chatAssign: ops<null>()({
    method: 'POST',
    path: '/chats/assign',
    cap: 'chat',
    req: Strict({ userId: RowId, staffId: Type.Union([RowId, Type.Null()]) }),
  }),
  chatTyping: ops<null>()({ method: 'POST', path: '/chats/typing', cap: 'chat', req: ByUser }),
  canned: ops<Array<{ id: number; title: string; body: string }>>()({
    method: 'GET',
    path: '/chats/canned',
    cap: 'chat',
    req: Empty,
  }),
} as const;
