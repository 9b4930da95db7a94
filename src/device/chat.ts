import type Dexie from 'dexie';
import type { MessageRecord, MetaRecord, PendingMessage } from '../../workers/store/schema';
import { DEVICE_META } from '../shared/device-store';
import { MESSAGES_TTL_MS } from '../shared/rules';

/**
 * The customer-service chat as the device holds it (SPEC §7: the list cached 30 minutes), read by
 * the chat screen's live query (LiveQueries.tsx). The sync worker fetches and writes the list and
 * the outbox of messages written offline (workers/messages.ts); this only reads them.
 */
export interface ChatView {
  messages: Array<MessageRecord & { pending?: false }>;
  pending: Array<PendingMessage & { pending: true }>;
  /** When the list was fetched (its as-of), or null if never. */
  fetchedAt: number | null;
  /** The list is older than the TTL or its last refresh failed. */
  stale: boolean;
}

/** Reads the chat from the device store at `now` (a live query's querier: Dexie calls only). */
export async function readChat(db: Dexie, now: number): Promise<ChatView> {
  const meta = db.table<MetaRecord, string>('meta');
  const [messages, waiting, fetched, failed] = await Promise.all([
    db.table<MessageRecord, number>('messages').orderBy('created_at').toArray(),
    db.table<PendingMessage, string>('pendingMessages').orderBy('at').toArray(),
    meta.get(DEVICE_META.chatFetchedAt),
    meta.get(DEVICE_META.chatFailedAt),
  ]);
  const fetchedAt = (fetched?.value as number | undefined) ?? null;
  const sent = new Set(messages.map((m) => m.client_id).filter(Boolean));
  return {
    messages,
    // A pending message the server already has (its answer was lost) is shown once, as sent.
    pending: waiting.filter((p) => !sent.has(p.clientId)).map((p) => ({ ...p, pending: true as const })),
    fetchedAt,
    stale: failed !== undefined || fetchedAt === null || now - fetchedAt >= MESSAGES_TTL_MS,
  };
}
