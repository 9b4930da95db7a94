import { type CallResult, isTransportFailure } from '#shared/contract/define';
import { MESSAGES_TTL_MS } from '#shared/rules';
import type { Device } from './device';
import type { MessageRecord, PendingMessage } from './store/schema';

/**
 * Customer-service messages (SPEC §7: cached locally for 30 minutes). The list is served from the
 * device while it is younger than MESSAGES_TTL_MS and refetched after; a message written offline
 * waits in an outbox (shown as pending) and is sent when online, carrying its client id so a resend
 * after a lost answer does not post it twice.
 */
export interface ChatView {
  messages: Array<MessageRecord & { pending?: false }>;
  pending: Array<PendingMessage & { pending: true }>;
  /** When the list was fetched (its as-of), or null if never. */
  fetchedAt: number | null;
  /** The list is older than the TTL or could not be refreshed. */
  stale: boolean;
}

type SendMessages = (
  name: 'messageList' | 'messageSend',
  input: Record<string, unknown>,
) => Promise<CallResult<unknown>>;

export interface MessagesOptions {
  device: Device;
  send: SendMessages;
  online: () => boolean;
  now?: () => number;
  newId?: () => string;
  lock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
  /** Something changed: push a fresh view to the screens. */
  changed?: () => void;
}

const FETCHED_AT = 'messages.fetchedAt';

export function createMessages(opts: MessagesOptions) {
  const { device } = opts;
  const now = opts.now ?? Date.now;
  const newId = opts.newId ?? (() => crypto.randomUUID());
  const lock = opts.lock ?? (<T>(_: string, fn: () => Promise<T>) => fn());
  let loading: Promise<void> | null = null;
  let flushing: Promise<void> | null = null;
  let lastError = false;

  const fetchedAt = () =>
    device.read(async (db) => ((await db.meta.get(FETCHED_AT))?.value as number | undefined) ?? null, null);

  async function view(): Promise<ChatView> {
    const [messages, pending, at] = await Promise.all([
      device.read((db) => db.messages.orderBy('created_at').toArray(), [] as MessageRecord[]),
      device.read((db) => db.pendingMessages.orderBy('at').toArray(), [] as PendingMessage[]),
      fetchedAt(),
    ]);
    const sent = new Set(messages.map((m) => m.client_id).filter(Boolean));
    return {
      messages,
      // A pending message the server already has (its answer was lost) is shown once, as sent.
      pending: pending.filter((p) => !sent.has(p.clientId)).map((p) => ({ ...p, pending: true as const })),
      fetchedAt: at,
      stale: lastError || at === null || now() - at >= MESSAGES_TTL_MS,
    };
  }

  /** Refetches when the cache is older than the TTL (or always with `force`). */
  function load(force = false): Promise<void> {
    loading ??= (async () => {
      const at = await fetchedAt();
      if (!force && at !== null && now() - at < MESSAGES_TTL_MS) return;
      if (!opts.online()) return;
      const epoch = device.epoch();
      const result = await opts.send('messageList', {});
      if (!result.ok) {
        lastError = true;
        opts.changed?.();
        return;
      }
      lastError = false;
      const rows = result.data as MessageRecord[];
      await device.write(epoch, (db) =>
        db.transaction('rw', db.messages, db.meta, db.pendingMessages, async () => {
          await db.messages.clear();
          await db.messages.bulkPut(rows);
          await db.meta.put({ key: FETCHED_AT, value: now() });
          const sent = rows.map((m) => m.client_id).filter((id): id is string => !!id);
          if (sent.length) await db.pendingMessages.bulkDelete(sent);
        }),
      );
      opts.changed?.();
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  async function write(body: string): Promise<string> {
    const clientId = newId();
    await device.write(device.epoch(), (db) =>
      db.pendingMessages.put({ clientId, body, at: now(), attempts: 0 }),
    );
    opts.changed?.();
    void flush();
    return clientId;
  }

  /** Sends waiting messages in the order they were written; stops at the first network failure. */
  function flush(): Promise<void> {
    if (!opts.online()) return Promise.resolve();
    flushing ??= lock('bourse-messages-outbox', async () => {
      for (;;) {
        const epoch = device.epoch();
        const waiting = await device.read(
          (db) =>
            db.pendingMessages
              .orderBy('at')
              .filter((p) => !p.failed)
              .first(),
          undefined,
        );
        if (!waiting || !opts.online()) return;
        const result = await opts.send('messageSend', { message: waiting.body, client_id: waiting.clientId });
        if (!result.ok && (result.status === 401 || isTransportFailure(result.error))) {
          await device.write(epoch, (db) =>
            db.pendingMessages.update(waiting.clientId, { attempts: waiting.attempts + 1 }),
          );
          return;
        }
        await device.write(epoch, (db) =>
          db.transaction('rw', db.messages, db.pendingMessages, async () => {
            if (result.ok) {
              await db.messages.put(result.data as MessageRecord);
              await db.pendingMessages.delete(waiting.clientId);
            } else await db.pendingMessages.update(waiting.clientId, { failed: result.error });
          }),
        );
        opts.changed?.();
      }
    }).finally(() => {
      flushing = null;
    });
    return flushing;
  }

  /** A rejected message: try it again, or drop it. */
  async function retry(clientId: string): Promise<void> {
    await device.write(device.epoch(), (db) => db.pendingMessages.update(clientId, { failed: undefined }));
    opts.changed?.();
    await flush();
  }

  async function discard(clientId: string): Promise<void> {
    await device.write(device.epoch(), (db) => db.pendingMessages.delete(clientId));
    opts.changed?.();
  }

  return { view, load, write, flush, retry, discard };
}
