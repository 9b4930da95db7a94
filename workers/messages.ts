import { type CallResult, isTransportFailure } from '#shared/contract/define';
import { DEVICE_META } from '#shared/device-store';
import { MESSAGES_TTL_MS } from '#shared/rules';
import type { Device } from './device';
import type { MessageRecord } from './store/schema';

/**
 * Customer-service messages (SPEC §7: cached locally for 30 minutes). The list is served from the
 * device while it is younger than MESSAGES_TTL_MS and refetched after; a message written offline
 * waits in an outbox (shown as pending) and is sent when online, carrying its client id so a resend
 * after a lost answer does not post it twice. The chat screen reads the list, the outbox and their
 * age from the device store itself (src/device/chat.ts).
 */
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
}

export function createMessages(opts: MessagesOptions) {
  const { device } = opts;
  const now = opts.now ?? Date.now;
  const newId = opts.newId ?? (() => crypto.randomUUID());
  const lock = opts.lock ?? (<T>(_: string, fn: () => Promise<T>) => fn());
  let loading: Promise<void> | null = null;
  let flushing: Promise<void> | null = null;

  const fetchedAt = () =>
    device.read(
      async (db) => ((await db.meta.get(DEVICE_META.chatFetchedAt))?.value as number | undefined) ?? null,
      null,
    );

  /** Refetches when the cache is older than the TTL (or always with `force`). */
  function load(force = false): Promise<void> {
    loading ??= (async () => {
      const at = await fetchedAt();
      if (!force && at !== null && now() - at < MESSAGES_TTL_MS) return;
      if (!opts.online()) return;
      const epoch = device.epoch();
      const result = await opts.send('messageList', {});
      if (!result.ok) {
        // Kept on the device, where the chat screen reads it: its list is marked out of date.
        await device.write(epoch, (db) => db.meta.put({ key: DEVICE_META.chatFailedAt, value: now() }));
        return;
      }
      const rows = result.data as MessageRecord[];
      await device.write(epoch, (db) =>
        db.transaction('rw', db.messages, db.meta, db.pendingMessages, async () => {
          await db.messages.clear();
          await db.messages.bulkPut(rows);
          await db.meta.put({ key: DEVICE_META.chatFetchedAt, value: now() });
          await db.meta.delete(DEVICE_META.chatFailedAt);
          const sent = rows.map((m) => m.client_id).filter((id): id is string => !!id);
          if (sent.length) await db.pendingMessages.bulkDelete(sent);
        }),
      );
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
      }
    }).finally(() => {
      flushing = null;
    });
    return flushing;
  }

  /** A rejected message: try it again, or drop it. */
  async function retry(clientId: string): Promise<void> {
    await device.write(device.epoch(), (db) => db.pendingMessages.update(clientId, { failed: undefined }));
    await flush();
  }

  async function discard(clientId: string): Promise<void> {
    await device.write(device.epoch(), (db) => db.pendingMessages.delete(clientId));
  }

  return { load, write, flush, retry, discard };
}
