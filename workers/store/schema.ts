import Dexie, { type Table, type Transaction } from 'dexie';
import type { ChatMessage } from '#shared/contract/content';
import type { Period } from '#shared/contract/market';
import type { Columns } from '../chart';
import { isPrivateEndpoint } from './private';

/**
 * The device store (IndexedDB through Dexie). The sync worker is its only writer: it writes what it
 * learns and serves cold and offline reads through its API; screens read a few tables themselves
 * (src/device/, in a chunk of their own, never in a first screen's code). Every record that
 * belongs to a signed-in user is removed by `wipeDevice`.
 *
 * Versions are append-only: a new version gets a new entry in VERSIONS with the stores that change
 * and, when existing records must change shape, an upgrade. tests/dom/db.test.ts opens databases
 * written by every earlier version.
 */

/** Last known price of an instrument (from any answer that carried one). */
export interface QuoteRecord {
  symbol: string;
  price: number;
  change?: number;
  /** Percent change of the day. */
  percent?: number;
  name?: string;
  market?: string;
  decimals?: number;
  /** Epoch ms of the price (the server's as-of, or when the answer arrived). */
  asOf: number;
}

/** What the device believes about one favourite; `pending` until the server confirmed it. */
export interface FavouriteRecord {
  symbol: string;
  on: boolean;
  /** 1 while an outbox operation for this symbol waits (a number: booleans cannot be indexed). */
  pending: 0 | 1;
  name?: string;
  market?: string;
  updatedAt: number;
}

/**
 * A favourite or watchlist change made on the device, replayed to the server in `id` order.
 * `add`/`remove` change an instrument's membership (of Favourites, or of the named list `list`);
 * `create`/`rename`/`reorder`/`delete` change the lists themselves (`symbol` is '').
 */
export interface FavouriteOp {
  id?: number;
  op: 'add' | 'remove' | 'create' | 'rename' | 'reorder' | 'delete';
  symbol: string;
  at: number;
  attempts: number;
  /**
   * A named watchlist's id: the change is to that list, not to Favourites. Not indexed
   * (no schema version): the outbox is read in `id` order anyway. A list made on this device and
   * not yet acknowledged has a temporary negative id (minus its create's op id), rewritten to the
   * server's id when the create is answered; 0 for a reorder (it names every list in `ids`).
   */
  list?: number;
  /** The instrument's name (add/remove), or the list's new name (create/rename). */
  name?: string;
  market?: string;
  /** rename/delete: the list's name when the change was made (for the message if refused). */
  was?: string;
  /** reorder: every list's id in the new order. */
  ids?: number[];
}

/** A customer-service message confirmed by the server: stored as the contract answers it. */
export type MessageRecord = ChatMessage;

/** A message written on the device, sent when online; the server dedupes by `clientId`. */
export interface PendingMessage {
  clientId: string;
  body: string;
  at: number;
  attempts: number;
  /** i18n key of a rejection (the message will not be resent). */
  failed?: string;
}

/** The last good answer of a GET call, for offline and cold start. */
export interface AnswerRecord {
  /** `${endpoint}:${stableJson(input)}` */
  key: string;
  name: string;
  data: unknown;
  /** When the answer arrived (its as-of). */
  at: number;
  /** The signed-in user the answer belongs to (0 for public data). */
  owner: number;
}

/** All candles of one symbol and period as columns: one record, not a row per candle. */
export interface CandleChunk extends Columns {
  /** `${symbol}:${period}` */
  key: string;
  symbol: string;
  period: Period;
  name: string;
  decimals: number;
  /** As-of of the newest price in the chunk. */
  asOf: number;
}

/**
 * A money call (order, recharge, withdrawal, loan, IPO, fund or block buy), written before its
 * request leaves so a lost answer can be asked about later by its Idempotency-Key. The input is
 * kept without secrets (the transaction password never reaches the device store).
 */
export interface MoneyCallRecord {
  key: string;
  name: string;
  input: unknown;
  state: 'sending' | 'unconfirmed' | 'checking' | 'confirmed' | 'rejected' | 'missing';
  /** When it was sent (epoch ms). */
  at: number;
  /** The outcome once known: the answer's data, or the rejection's i18n key. */
  data?: unknown;
  error?: string;
}

export interface MetaRecord {
  key: string;
  value: unknown;
}

export interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

/** The schema history. Never edit a shipped entry: add one. */
export const VERSIONS: SchemaVersion[] = [
  {
    version: 1,
    stores: {
      quotes: 'symbol',
      favourites: 'symbol',
      favouriteOps: '++id, symbol',
      messages: 'id, created_at',
      answers: 'key, name',
      meta: 'key',
    },
  },
  {
    // Answers get an owner so one user's cached account data can never be served to another, candles
    // move into column chunks, and messages written offline get their outbox. Version 1 answers of
    // signed-in calls have no known owner: they are dropped (the next poll refills them).
    version: 2,
    stores: {
      answers: 'key, name, owner',
      candles: 'key, symbol',
      pendingMessages: 'clientId, at',
    },
    async upgrade(tx) {
      await tx
        .table<AnswerRecord, string>('answers')
        .toCollection()
        .modify((row, ref) => {
          if (isPrivateEndpoint(row.name)) delete (ref as { value?: unknown }).value;
          else row.owner = 0;
        });
    },
  },
  {
    // Money calls whose outcome must be known before anything else happens to them.
    version: 3,
    stores: { moneyCalls: 'key, at' },
  },
];

export const DB_NAME = 'bourse';

export class DeviceDb extends Dexie {
  quotes!: Table<QuoteRecord, string>;
  favourites!: Table<FavouriteRecord, string>;
  favouriteOps!: Table<FavouriteOp, number>;
  messages!: Table<MessageRecord, number>;
  answers!: Table<AnswerRecord, string>;
  meta!: Table<MetaRecord, string>;
  candles!: Table<CandleChunk, string>;
  pendingMessages!: Table<PendingMessage, string>;
  moneyCalls!: Table<MoneyCallRecord, string>;

  constructor(name = DB_NAME, versions: SchemaVersion[] = VERSIONS) {
    super(name);
    for (const v of versions) {
      const declared = this.version(v.version).stores(v.stores);
      if (v.upgrade) declared.upgrade(v.upgrade);
    }
  }
}

export const CURRENT_VERSION = VERSIONS[VERSIONS.length - 1]!.version;
