import * as Type from '@sinclair/typebox';
import { endpoint } from './define';
import { NoQuery, Paging, RowId, Strict } from './schemas';

/** News and customer service. */

/** SPEC §3 News; `content` is HTML sanitised by the server when stored (the app sanitises again). */
export interface NewsItem {
  id: number;
  title: string;
  subhead: string;
  img: string | null;
  content: string;
  created_at: number;
  updated_at: number;
}

export interface ChatMessage {
  id: number;
  sender: 'user' | 'agent';
  body: string;
  /** The app's id for a message written offline (dedupes a resend). */
  client_id: string | null;
  read_at: number | null;
  created_at: number;
  /**
   * A text of ours rather than a person's (the welcome): its message key, which the app shows in
   * the user's language (`body` stays the English text for any other client).
   */
  text_key?: 'chat.welcome';
}

/** The open chat's live state: the agent typing, "Read" marks, the newest message. */
export interface ChatState {
  agent_typing: boolean;
  /** The newest of the customer's messages an agent has read (0: none). */
  read_up_to: number;
  /** The newest message of the chat (0: none); newer than the list shows: refetch it. */
  latest_id: number;
}

export const contentContract = {
  newsList: endpoint<{ rows: Array<Omit<NewsItem, 'content'>>; count: number }>()({
    method: 'GET',
    path: '/stock/new/list',
    auth: false,
    req: Type.Object({
      ...Paging,
      limit: Type.Optional(
        Type.Union([Type.Literal(10), Type.Literal(20), Type.Literal(30), Type.Literal(50)]),
      ),
    }),
  }),
  newsArticle: endpoint<NewsItem>()({
    method: 'GET',
    path: '/stock/new/index',
    auth: false,
    req: Type.Object({ id: RowId }),
  }),
  /** Where customer service lives (SPEC: "data: URL or route"): an in-app route or an external URL. */
  kefu: endpoint<string>()({
    method: 'GET',
    path: '/stock/success/kefu',
    auth: true,
    req: NoQuery,
  }),
  messageList: endpoint<ChatMessage[]>()({
    method: 'GET',
    path: '/stock/success/user_message/list-message',
    auth: true,
    req: NoQuery,
  }),
  messageSend: endpoint<ChatMessage>()({
    method: 'POST',
    path: '/stock/success/user_message/send',
    auth: true,
    req: Strict({
      message: Type.String({ minLength: 1, maxLength: 2000 }),
      client_id: Type.Optional(Type.String({ maxLength: 64 })),
    }),
  }),
  unreadCount: endpoint<{ unread_count: number }>()({
    method: 'GET',
    path: '/stock/success/user_message/unread-count',
    auth: true,
    req: NoQuery,
  }),
  /** Marks the agent's messages read (the badge clears). */
  messageRead: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/user_message/read',
    auth: true,
    req: Strict({}),
  }),
  /** The open chat's live state, polled while the chat screen is shown. */
  chatState: endpoint<ChatState>()({
    method: 'GET',
    path: '/stock/success/user_message/state',
    auth: true,
    req: NoQuery,
  }),
  /** The customer is typing (sent every few seconds while the draft changes); answers the state. */
  chatTyping: endpoint<ChatState>()({
    method: 'POST',
    path: '/stock/success/user_message/typing',
    auth: true,
    req: Strict({}),
  }),
};
