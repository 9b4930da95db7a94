import type { CallResult } from '#shared/contract/define';
import type { Device } from './device';

/**
 * What the favourites' outbox (`favourites.ts`) and the named lists' changes waiting in it
 * (`lists-outbox.ts`) share: how a change is sent, what a replay of the outbox comes to, and what
 * both need of the worker.
 */
export type Send = (
  name:
    | 'favouriteAdd'
    | 'favouriteRemove'
    | 'favouriteCheck'
    | 'watchlistAdd'
    | 'watchlistRemove'
    | 'watchlistCreate'
    | 'watchlistRename'
    | 'watchlistReorder'
    | 'watchlistDelete'
    | 'watchlistLists',
  input: { symbol?: string; id?: number; name?: string; ids?: number[] },
) => Promise<CallResult<unknown>>;

/** A replay of the outbox: emptied, stopped offline, stopped by a transport failure, or the session ended. */
export type FlushResult = 'done' | 'offline' | 'retry' | 'ended';

export interface OutboxDeps {
  device: Device;
  send: Send;
  online: () => boolean;
  now: () => number;
}
