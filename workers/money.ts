import type { MoneyOutcome } from '#shared/contract/account';
import { type CallResult, type EndpointName, ERR } from '#shared/contract/index';
import type { Device } from './device';
import { isUnreached } from './network';
import type { MoneyCallRecord } from './store/schema';

/**
 * The money journal (DESIGN rule 6): every money call is written to the device store
 * with its Idempotency-Key before the request leaves. An answer settles it (confirmed or
 * rejected). A lost answer — timeout, reset, a gateway error — makes it `unconfirmed`, never
 * "failed": on the next good connection the worker asks the server what became of the key
 * (`moneyOutcome`) and settles it, or finds it `missing` (never received). Only the user sends a
 * missing call again, with the same key; nothing is re-sent on its own.
 */
type MoneyState = MoneyCallRecord['state'];

/** What the UI is told about one money call. */
export interface MoneyView {
  key: string;
  name: string;
  state: MoneyState;
  at: number;
  /** Settled: the answer as the screen would have had it. */
  result?: CallResult<unknown>;
  /**
   * The answer came from asking the server about a lost one (reconcile), not as the reply its
   * sender is awaiting: only such a late outcome is news to anyone but the sender.
   */
  late?: boolean;
}

/** The i18n key a sender gets for a call whose answer was lost (its screen shows the state, not an error). */
const MONEY_UNCONFIRMED = 'core.money.unconfirmed';

/** Fields never written to the device store. */
const SECRETS = ['stock_password'];
/** Settled records are dropped; unsettled ones older than this are given up (the records screens tell). */
const KEEP_MS = 24 * 3600_000;

export interface MoneyJournalOptions {
  device: Device;
  send: (name: EndpointName, input: unknown, key: string) => Promise<CallResult<unknown>>;
  lookup: (key: string) => Promise<CallResult<MoneyOutcome>>;
  emit: (view: MoneyView) => void;
  now?: () => number;
}

const withoutSecrets = (input: unknown) =>
  input && typeof input === 'object'
    ? Object.fromEntries(Object.entries(input).filter(([k]) => !SECRETS.includes(k)))
    : input;

function view(r: MoneyCallRecord): MoneyView {
  const settled =
    r.state === 'confirmed'
      ? { result: { ok: true as const, data: r.data } }
      : r.state === 'rejected'
        ? { result: { ok: false as const, error: r.error ?? ERR.server, status: 200 } }
        : {};
  return { key: r.key, name: r.name, state: r.state, at: r.at, ...settled };
}

export function createMoneyJournal(opts: MoneyJournalOptions) {
  const { device } = opts;
  const now = opts.now ?? Date.now;
  /** Mirror of the store (the store may be unavailable: the journal still works for this session). */
  const records = new Map<string, MoneyCallRecord>();
  let loaded: Promise<void> | null = null;
  let reconciling: Promise<void> | null = null;

  function load(): Promise<void> {
    loaded ??= device
      .read((db) => db.moneyCalls.toArray(), [] as MoneyCallRecord[])
      .then((rows) => {
        for (const r of rows) if (!records.has(r.key)) records.set(r.key, r);
      });
    return loaded;
  }

  async function put(r: MoneyCallRecord, late = false): Promise<void> {
    records.set(r.key, r);
    opts.emit(late ? { ...view(r), late } : view(r));
    if (r.state === 'confirmed' || r.state === 'rejected') {
      records.delete(r.key);
      await device.write(device.epoch(), (db) => db.moneyCalls.delete(r.key));
    } else await device.write(device.epoch(), (db) => db.moneyCalls.put(r));
  }

  function settle(r: MoneyCallRecord, result: CallResult<unknown>): MoneyCallRecord {
    return result.ok
      ? { ...r, state: 'confirmed', data: result.data }
      : { ...r, state: 'rejected', error: result.error };
  }

  return {
    /**
     * Sends a money call under `key`, journaled first. A lost answer resolves as
     * `{ ok: false, error: MONEY_UNCONFIRMED }`: the outcome follows as a `money` event.
     */
    async send(name: EndpointName, input: unknown, key: string): Promise<CallResult<unknown>> {
      await load();
      const record: MoneyCallRecord = {
        key,
        name,
        input: withoutSecrets(input),
        state: 'sending',
        at: now(),
      };
      await put(record);
      const result = await opts.send(name, input, key);
      if (!result.ok && isUnreached(result.status) && result.error !== ERR.offline) {
        await put({ ...record, state: 'unconfirmed' });
        return { ok: false, error: MONEY_UNCONFIRMED, status: 0 };
      }
      await put(settle(record, result));
      return result;
    },

    /** Asks the server about every unconfirmed call (one at a time; the first failure stops it). */
    reconcile(): Promise<void> {
      reconciling ??= (async () => {
        await load();
        const open = [...records.values()].filter((r) => r.state === 'unconfirmed' || r.state === 'checking');
        for (const r of open) {
          if (now() - r.at > KEEP_MS) {
            records.delete(r.key);
            await device.write(device.epoch(), (db) => db.moneyCalls.delete(r.key));
            continue;
          }
          await put({ ...r, state: 'checking' });
          const answer = await opts.lookup(r.key);
          if (!answer.ok) {
            await put({ ...r, state: 'unconfirmed' });
            break;
          }
          const outcome = answer.data;
          if (!outcome.found) await put({ ...r, state: 'missing' });
          else if (outcome.answer.msg === 'ok')
            await put({ ...r, state: 'confirmed', data: outcome.answer.data }, true);
          else await put({ ...r, state: 'rejected', error: String(outcome.answer.data) }, true);
        }
      })().finally(() => {
        reconciling = null;
      });
      return reconciling;
    },

    /** Calls not settled yet (a screen that opens picks up its own by key). */
    async open(): Promise<MoneyView[]> {
      await load();
      return [...records.values()].map(view);
    },

    /** The user let a missing call go (or sent it again under the same key, which journals anew). */
    async forget(key: string): Promise<void> {
      records.delete(key);
      await device.write(device.epoch(), (db) => db.moneyCalls.delete(key));
    },

    hasUnconfirmed: () => [...records.values()].some((r) => r.state === 'unconfirmed'),
    clear(): void {
      records.clear();
      loaded = null;
    },
  };
}
