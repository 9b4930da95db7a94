import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { CustomerHit, CustomerMatch, CustomerPage, CustomerRow } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { compactCode, PHONE_LENGTH } from '#shared/rules';
import { KYC_STATUS } from '#shared/status';
import { namesOf } from '../account/customer-names';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';

/**
 * The desk's one search box and the customer list. What a person types is read as every form it
 * could be — a phone whole (spaced, dashed, +91/0091/0 in front), a phone's or a card's last four
 * digits, a phone's first digits, a card number, an account number (B…), an ID number such as a
 * PAN, any word of a name — and each form is its own small indexed query (076_customer_search,
 * 073's ID index), so a search stays a handful of lookups over any number of customers. Only the
 * name part scans (the names of the real-name cases and of card holders), and only for text of
 * letters without digits. Hits are ranked by how surely they are the person: a whole identifier first, then a
 * last four, a phone's start, then names (whole word before the start of a word before inside one).
 */

/** How surely each form names the person: lower first. */
const RANK: Record<CustomerMatch, number> = {
  phone: 0,
  card: 0,
  idNumber: 0,
  account: 0,
  phoneEnd: 1,
  cardEnd: 2,
  phoneStart: 3,
  name: 4,
  nameStart: 5,
  namePart: 6,
};

/** At most this many hits (the box shows them all; a longer query narrows). */
const HITS = 20;
/** The last four, as 076's indexes hold it (the same expression, or the index is not used). */
const tail = (column: string) => sql<string>`substr(${sql.ref(column)}, length(${sql.ref(column)}) - 3)`;

/** A phone typed whole in any of its usual forms, as stored (10 digits), or null. */
export function phoneOf(digits: string): string | null {
  for (const prefix of ['0091', '91', '0']) {
    if (digits.length === PHONE_LENGTH + prefix.length && digits.startsWith(prefix))
      return digits.slice(prefix.length);
  }
  return digits.length === PHONE_LENGTH ? digits : null;
}

/** What the text could be; `null` when it is nothing searchable (too short, only punctuation). */
export function readQuery(q: string) {
  const text = q.normalize('NFKC').trim().replace(/\s+/g, ' ');
  // Separators people type inside numbers: spaces, dashes, dots, brackets; a leading + of +91.
  const compact = compactCode(text.replace(/[().+]/g, ''));
  const digits = /^\d+$/.test(compact) ? compact : null;
  const code = /^[A-Z0-9]{4,34}$/.test(compact) ? compact : null;
  // Letters of any script, with the marks, apostrophes and dots names carry. Text with a digit is
  // an identifier (a PAN, an account number), never a name: no scan of the names for it.
  const words =
    /\p{L}/u.test(text) && !/\d/.test(text)
      ? text
          .toLowerCase()
          .replace(/[^\p{L}\p{M}\s'.-]/gu, '')
          .split(' ')
          .filter((w) => w.length > 0)
      : [];
  if ((digits?.length ?? 0) < 2 && !code && words.join('').length < 2) return null;
  return { digits, code, words };
}

type Found = Array<{ id: number; match: CustomerMatch }>;

async function candidates(db: Kysely<DB>, q: NonNullable<ReturnType<typeof readQuery>>): Promise<Found> {
  const asks: Array<Promise<Found>> = [];
  const ids = (match: CustomerMatch) => (rows: Array<{ id: number }>) =>
    rows.map((r) => ({ id: r.id, match }));
  const users = () => db.selectFrom('users').select('users.id').limit(HITS);
  const cards = () => db.selectFrom('bank_cards').select('bank_cards.user_id as id').limit(HITS);
  const { digits, code, words } = q;
  if (digits) {
    const phone = phoneOf(digits);
    if (phone) asks.push(users().where('phone', '=', phone).execute().then(ids('phone')));
    if (digits.length === 4) {
      asks.push(users().where(tail('users.phone'), '=', digits).execute().then(ids('phoneEnd')));
      asks.push(cards().where(tail('bank_cards.bank_card'), '=', digits).execute().then(ids('cardEnd')));
    }
    if (digits.length < PHONE_LENGTH)
      // A range, not LIKE: the phone's unique index serves it on both databases (':' follows '9').
      asks.push(
        users()
          .where('phone', '>=', digits)
          .where('phone', '<', `${digits}:`)
          .orderBy('phone')
          .execute()
          .then(ids('phoneStart')),
      );
  }
  if (code) {
    if (code.length >= 6) asks.push(cards().where('bank_card', '=', code).execute().then(ids('card')));
    asks.push(users().where('no', '=', code).execute().then(ids('account')));
    asks.push(
      db
        .selectFrom('kyc')
        .select('user_id as id')
        // 073's index, the same expression.
        .where(sql<string>`upper(replace(replace(id_number, ' ', ''), '-', ''))`, '=', code)
        .limit(HITS)
        .execute()
        .then(ids('idNumber')),
    );
  }
  if (words.length > 0) {
    const phrase = words.join(' ').replace(/[%_\\]/g, '');
    const like = (column: string, pattern: string): Expression<SqlBool> =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern}`;
    // Every word typed is in the name, each at a word's start (or inside one: namePart).
    const named = (column: string, at: (w: string) => string[]) =>
      sql<SqlBool>`${sql.join(
        words.map(
          (w) =>
            sql`(${sql.join(
              at(w).map((p) => like(column, p)),
              sql` or `,
            )})`,
        ),
        sql` and `,
      )}`;
    const starts = (w: string) => [`${w}%`, `% ${w}%`];
    const inside = (w: string) => [`%${w}%`];
    for (const [table, column, key] of [
      ['kyc', 'kyc.real_name', 'kyc.user_id'],
      ['bank_cards', 'bank_cards.bank_user', 'bank_cards.user_id'],
    ] as const) {
      asks.push(
        db
          .selectFrom(table)
          .select([sql.ref<number>(key).as('id'), sql<string>`lower(${sql.ref(column)})`.as('name')])
          .where(named(column, phrase.length >= 3 ? inside : starts))
          .limit(200)
          .execute()
          .then((rows) =>
            rows.map((r) => {
              const parts = r.name.split(/\s+/);
              const match: CustomerMatch = words.every((w) => parts.includes(w))
                ? 'name'
                : words.every((w) => parts.some((p) => p.startsWith(w)))
                  ? 'nameStart'
                  : 'namePart';
              return { id: r.id, match };
            }),
          ),
      );
    }
  }
  return (await Promise.all(asks)).flat();
}

/** The page's rows for these customers, in this order. */
async function rowsOf(db: Kysely<DB>, ids: number[]): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  const [users, names] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'phone', 'no', 'balance', 'created_at'])
      .where('id', 'in', ids)
      .execute(),
    namesOf(db, ids),
  ]);
  const byId = new Map(users.map((u) => [u.id, u]));
  return ids.flatMap((id) => {
    const u = byId.get(id);
    const n = names.get(id);
    if (!u || !n) return [];
    return [
      {
        id: u.id,
        phone: u.phone,
        no: u.no,
        name: n.name,
        nameFrom: n.nameFrom,
        kycStatus: n.kycStatus,
        balance: fromMinor(u.balance),
        createdAt: u.created_at,
      },
    ];
  });
}

/** The search box: at most 20 customers, surest first (then newest), each with how it matched. */
export async function searchCustomers(deps: Deps, q: string): Promise<CustomerHit[]> {
  const query = readQuery(q);
  if (!query) return [];
  const best = new Map<number, CustomerMatch>();
  for (const f of await candidates(deps.database.db, query)) {
    const had = best.get(f.id);
    if (had === undefined || RANK[f.match] < RANK[had]) best.set(f.id, f.match);
  }
  const order = [...best].sort((a, b) => RANK[a[1]] - RANK[b[1]] || b[0] - a[0]).slice(0, HITS);
  const rows = await rowsOf(
    deps.database.db,
    order.map(([id]) => id),
  );
  return rows.map((r) => ({ ...r, matched: best.get(r.id)! }));
}

/** A page of the customer list. */
export const LIST_PAGE = 50;

/**
 * Customers newest first, 50 a page (`before`: the last id of the previous page), optionally only
 * those whose real-name case is in one KYC status (`none`: never submitted).
 */
export async function customerList(deps: Deps, f: { kyc?: number; before?: number }): Promise<CustomerPage> {
  const { db } = deps.database;
  let q = db
    .selectFrom('users')
    .select('users.id')
    .orderBy('users.id', 'desc')
    .limit(LIST_PAGE + 1);
  if (f.before !== undefined) q = q.where('users.id', '<', f.before);
  if (f.kyc === KYC_STATUS.none)
    q = q.where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('kyc').select('kyc.user_id').whereRef('kyc.user_id', '=', 'users.id'))),
    );
  else if (f.kyc !== undefined)
    q = q.innerJoin('kyc', 'kyc.user_id', 'users.id').where('kyc.status', '=', f.kyc);
  const found = await q.execute();
  const page = found.slice(0, LIST_PAGE).map((r) => r.id);
  return {
    rows: await rowsOf(db, page),
    next: found.length > LIST_PAGE ? (page[page.length - 1] ?? null) : null,
  };
}
