import type { Kysely } from 'kysely';
import { type Notice, noticePath, noticeTag } from '#shared/notices';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import type { PushObserver, PushOutcome } from '../lib/metrics';
import { type PushPayload, pushRequest } from './push-request';

export type { PushPayload } from './push-request';

import { DEFAULT_PREFS, inQuietHours, loadPrefs } from './subscriptions';
import { pushText } from './texts';
import { type VapidKeys, vapidKeys } from './vapid';

/**
 * The push sender (the `push:send` job, on the jobs' leader). Each run:
 * 1. hands every waiting notice of the outbox to its user's devices — one delivery row per device,
 *    unique per notice and device — or marks it not to be sent (its group turned off, quiet hours,
 *    no device, too old); security notices ignore the preferences;
 * 2. sends the due deliveries in batches: a batch is claimed in one statement (state `sending`,
 *    committed) before its requests leave, they leave a bounded number at a time, and the outcomes
 *    are recorded after, together, in one transaction of a statement per outcome. A delivery is
 *    therefore sent at most once after a success, and a sender killed mid-batch leaves its claims
 *    behind: after LEASE_MS they are marked in doubt and never sent again (the push may have
 *    arrived; a second one would be a duplicate on the lock screen; the inbox has the notice either
 *    way). Per-row statements, not the requests, were what bounded the throughput.
 * Encryption (RFC 8291, aes128gcm) and the VAPID header (RFC 8292) are web-push's; the request is
 * ours (fetch: keep-alive, a timeout, http only for the tests' loopback endpoint).
 */

export const OUTBOX = { waiting: 0, handed: 1, unsent: 2 } as const;
export const DELIVERY = { due: 0, sending: 1, sent: 2, failed: 3, doubt: 4 } as const;

/** Requests in flight at once. */
const IN_FLIGHT = 64;
/**
 * Deliveries claimed and recorded together: what a crash can leave in doubt, never sent. No more
 * than are in flight: a larger batch (256) lost 69 pushes a kill -9 left claimed but unsent, for no
 * throughput that stood out of the noise.
 */
const BATCH = IN_FLIGHT;
/** Notices handed to devices per statement batch. */
const FAN_OUT_BATCH = 500;
/** A claim older than this belongs to a sender that died. */
export const LEASE_MS = 30_000;
/** Waits after the 1st, 2nd… failed attempt; after the last, the delivery has failed. */
export const RETRY_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000];
/** A notice older than this is not pushed any more: the inbox has it. */
export const MAX_AGE_MS = 24 * 3600_000;
/** Refusals in a row (400, 403, 413) before a subscription is dropped. */
const REFUSALS_MAX = 5;
/** One run sends for at most this long, so the next run's notices do not wait behind a backlog. */
const RUN_BUDGET_MS = 5_000;

const observers = new WeakMap<Deps, PushObserver>();
/** Metrics of this server's sends (main.ts, with METRICS_PORT). */
export function observePushes(deps: Deps, observer: PushObserver): void {
  observers.set(deps, observer);
}

export interface PushRun {
  handed: number;
  unsent: number;
  outcomes: Record<PushOutcome, number>;
}

export async function sendPushes(deps: Deps): Promise<PushRun> {
  const run: PushRun = {
    handed: 0,
    unsent: 0,
    outcomes: { sent: 0, retry: 0, failed: 0, gone: 0, doubt: 0 },
  };
  const started = performance.now();
  const observer = observers.get(deps);
  const count = (outcome: PushOutcome, latencyMs?: number) => {
    run.outcomes[outcome]++;
    observer?.delivered(outcome, latencyMs);
  };
  for (let i = await markInDoubt(deps); i > 0; i--) count('doubt');
  const keys = await vapidKeys(deps);
  while (performance.now() - started < RUN_BUDGET_MS) {
    const fanned = await fanOut(deps);
    run.handed += fanned.handed;
    run.unsent += fanned.unsent;
    const sent = await sendBatch(deps, keys, count);
    if (sent === 0 && fanned.handed + fanned.unsent === 0) break;
  }
  return run;
}

/** Claims left by a sender that died: in doubt, never sent again. Answers how many. */
async function markInDoubt(deps: Deps): Promise<number> {
  const res = await deps.database.db
    .updateTable('push_deliveries')
    .set({ state: DELIVERY.doubt })
    .where('state', '=', DELIVERY.sending)
    .where('claimed_at', '<', deps.clock.now() - LEASE_MS)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Hands waiting notices to their users' devices (step 1). */
async function fanOut(deps: Deps): Promise<{ handed: number; unsent: number }> {
  const { db } = deps.database;
  const waiting = await db
    .selectFrom('push_outbox')
    .select(['id', 'user_id', 'kind', 'created_at'])
    .where('state', '=', OUTBOX.waiting)
    .orderBy('id')
    .limit(FAN_OUT_BATCH)
    .execute();
  if (waiting.length === 0) return { handed: 0, unsent: 0 };
  const users = [...new Set(waiting.map((w) => w.user_id))];
  const [subs, prefs] = await Promise.all([
    db.selectFrom('push_subscriptions').select(['id', 'user_id']).where('user_id', 'in', users).execute(),
    loadPrefs(db, users),
  ]);
  const devices = new Map<number, number[]>();
  for (const s of subs) devices.set(s.user_id, [...(devices.get(s.user_id) ?? []), s.id]);
  const now = deps.clock.now();
  const handed: number[] = [];
  const unsent: number[] = [];
  const rows: Array<{ outbox_id: number; subscription_id: number }> = [];
  for (const w of waiting) {
    const p = prefs.get(w.user_id) ?? DEFAULT_PREFS;
    const wanted =
      w.kind === 'security' ||
      (p.kinds[w.kind as keyof typeof p.kinds] !== false && !inQuietHours(p.quiet, now));
    const to = devices.get(w.user_id) ?? [];
    if (!wanted || to.length === 0 || now - Number(w.created_at) > MAX_AGE_MS) {
      unsent.push(w.id);
      continue;
    }
    handed.push(w.id);
    for (const sub of to) rows.push({ outbox_id: w.id, subscription_id: sub });
  }
  await withTx(deps.database, async (trx) => {
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto('push_deliveries')
        .values(
          rows
            .slice(i, i + 200)
            .map((r) => ({ ...r, state: DELIVERY.due, attempts: 0, next_at: now, created_at: now })),
        )
        .onConflict((oc) => oc.columns(['outbox_id', 'subscription_id']).doNothing())
        .execute();
    if (handed.length > 0) await setOutbox(trx, handed, OUTBOX.handed);
    if (unsent.length > 0) await setOutbox(trx, unsent, OUTBOX.unsent);
  });
  return { handed: handed.length, unsent: unsent.length };
}

function setOutbox(trx: Kysely<DB>, ids: number[], state: number) {
  return trx
    .updateTable('push_outbox')
    .set({ state })
    .where('id', 'in', ids)
    .where('state', '=', OUTBOX.waiting)
    .execute();
}

/** The outcome of one claimed delivery's request. */
interface Answer {
  id: number;
  attempts: number;
  subscription_id: number;
  created_at: number;
  http: number;
  retryAfterMs: number;
}

/**
 * Claims up to BATCH due deliveries in one statement, sends them IN_FLIGHT at a time and records
 * the outcomes in one transaction, a statement per outcome rather than per delivery (step 2).
 * Answers how many were claimed.
 */
async function sendBatch(
  deps: Deps,
  keys: VapidKeys,
  count: (outcome: PushOutcome, latencyMs?: number) => void,
): Promise<number> {
  const { db } = deps.database;
  const now = deps.clock.now();
  // The claim is committed before any request leaves: a crash from here on leaves it in doubt.
  // `state = due` again outside the subquery: a row claimed meanwhile is not claimed twice.
  const claimed = await db
    .updateTable('push_deliveries')
    .set((eb) => ({ state: DELIVERY.sending, claimed_at: now, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('push_deliveries')
        .select('id')
        .where('state', '=', DELIVERY.due)
        .where('next_at', '<=', now)
        .orderBy('next_at')
        .orderBy('id')
        .limit(BATCH),
    )
    .where('state', '=', DELIVERY.due)
    .returning('id')
    .execute();
  if (claimed.length === 0) return 0;
  const work = await db
    .selectFrom('push_deliveries as d')
    .innerJoin('push_outbox as o', 'o.id', 'd.outbox_id')
    .innerJoin('push_subscriptions as s', 's.id', 'd.subscription_id')
    .select([
      'd.id',
      'd.attempts',
      'o.id as outbox_id',
      'o.user_id',
      'o.kind',
      'o.symbol',
      'o.params',
      'o.created_at',
      's.id as subscription_id',
      's.endpoint',
      's.p256dh',
      's.auth',
      's.lang',
    ])
    .where(
      'd.id',
      'in',
      claimed.map((c) => c.id),
    )
    .execute();
  const users = [...new Set(work.map((w) => w.user_id))];
  const [prefs, badges] = await Promise.all([loadPrefs(db, users), unreadCounts(deps, users)]);

  const answers: Answer[] = [];
  let next = 0;
  const lane = async () => {
    while (next < work.length) {
      const w = work[next++]!;
      const notice: Notice = { kind: w.kind, symbol: w.symbol, params: JSON.parse(w.params) };
      const text = pushText(notice, w.lang, (prefs.get(w.user_id) ?? DEFAULT_PREFS).amounts);
      const payload: PushPayload = {
        v: 1,
        id: w.outbox_id,
        kind: w.kind,
        tag: noticeTag(w.kind),
        title: text.title,
        body: text.body,
        path: noticePath(notice),
        at: Number(w.created_at),
        badge: badges.get(w.user_id) ?? 0,
      };
      const answer = await pushRequest(deps, keys, w, payload);
      answers.push({
        id: w.id,
        attempts: w.attempts,
        subscription_id: w.subscription_id,
        created_at: Number(w.created_at),
        ...answer,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, work.length) }, lane));
  await record(deps, answers, count);
  return claimed.length;
}

/** The users' unread inbox items (the app icon's badge), in one statement. */
async function unreadCounts(deps: Deps, users: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (users.length === 0) return counts;
  const rows = await deps.database.db
    .selectFrom('notifications')
    .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('user_id', 'in', users)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute();
  for (const r of rows) counts.set(r.user_id, Number(r.n));
  return counts;
}

/** Groups ids by a key: one statement per group instead of one per row. */
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Records a batch's outcomes in one transaction. 2xx: sent (never again); 404/410: the
 * subscription is dropped (its deliveries go with it); 429/5xx/no answer: due again after its
 * backoff, or failed after the last; any other answer: failed, the subscription dropped after
 * REFUSALS_MAX in a row. Drops come last: a device that both took one notice and answered 410 to
 * another is gone.
 */
async function record(
  deps: Deps,
  answers: Answer[],
  count: (outcome: PushOutcome, latencyMs?: number) => void,
): Promise<void> {
  const done = deps.clock.now();
  const sent = answers.filter((a) => a.http >= 200 && a.http < 300);
  const gone = answers.filter((a) => a.http === 404 || a.http === 410);
  const again = answers.filter((a) => a.http === 0 || a.http === 429 || a.http >= 500);
  const refused = answers.filter((a) => !sent.includes(a) && !gone.includes(a) && !again.includes(a));
  const retries = again.map((a) => {
    const wait = RETRY_MS[a.attempts - 1];
    const retry = wait !== undefined && done - a.created_at + wait < MAX_AGE_MS;
    return {
      a,
      retry,
      state: retry ? DELIVERY.due : DELIVERY.failed,
      next_at: done + Math.max(wait ?? 0, a.retryAfterMs),
    };
  });
  const ids = (xs: Array<{ id: number }>) => xs.map((x) => x.id);
  const subs = (xs: Answer[]) => [...new Set(xs.map((x) => x.subscription_id))];
  await withTx(deps.database, async (trx) => {
    for (const [, group] of groupBy(sent, (a) => String(a.http)))
      await trx
        .updateTable('push_deliveries')
        .set({ state: DELIVERY.sent, sent_at: done, status: group[0]!.http })
        .where('id', 'in', ids(group))
        .execute();
    if (sent.length > 0)
      await trx
        .updateTable('push_subscriptions')
        .set({ last_success_at: done, failures: 0 })
        .where('id', 'in', subs(sent))
        .execute();
    for (const [, group] of groupBy(retries, (r) => `${r.state}|${r.next_at}|${r.a.http}`))
      await trx
        .updateTable('push_deliveries')
        .set({ state: group[0]!.state, next_at: group[0]!.next_at, status: group[0]!.a.http })
        .where(
          'id',
          'in',
          group.map((r) => r.a.id),
        )
        .execute();
    const dropped = subs(gone);
    for (const [, group] of groupBy(refused, (a) => String(a.http)))
      await trx
        .updateTable('push_deliveries')
        .set({ state: DELIVERY.failed, status: group[0]!.http })
        .where('id', 'in', ids(group))
        .execute();
    // One refusal per delivery: two refused notices to a device count twice.
    for (const [, group] of groupBy(refused, (a) => String(a.subscription_id))) {
      const sub = await trx
        .updateTable('push_subscriptions')
        .set((eb) => ({ failures: eb('failures', '+', group.length) }))
        .where('id', '=', group[0]!.subscription_id)
        .returning('failures')
        .executeTakeFirst();
      if (sub && sub.failures >= REFUSALS_MAX) dropped.push(group[0]!.subscription_id);
    }
    // The device unsubscribed (or the browser dropped it), or refused too often.
    if (dropped.length > 0) await trx.deleteFrom('push_subscriptions').where('id', 'in', dropped).execute();
  });
  for (const a of sent) count('sent', done - a.created_at);
  for (let i = 0; i < gone.length; i++) count('gone');
  for (const r of retries) count(r.retry ? 'retry' : 'failed');
  for (let i = 0; i < refused.length; i++) count('failed');
}
