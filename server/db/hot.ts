import { CompiledQuery } from 'kysely';
import { BLOCK, IPO, STOCK } from '../trading/orders';
import type { Database } from './index';

/**
 * The reads every polling app pays for, several times a minute per user: the session behind a
 * token, user info, balance and the unread count. Each is one fixed SQL text on indexed columns
 * (sessions' primary key, users' primary key, positions_pk, orders_user, fund_orders_user,
 * loans_user_state, messages_unread), written once for both databases:
 * - SQLite: prepared once on a second, read-only connection and run synchronously. The writer
 *   connection is not used because Kysely holds it across awaits inside a transaction, and a read
 *   on it then would see that transaction's uncommitted rows; in WAL mode the reader sees exactly
 *   the committed state, as any PostgreSQL connection does. An in-memory database has no second
 *   connection, so it goes through Kysely like PostgreSQL.
 * - PostgreSQL: the same text with $n placeholders through Kysely's pool, skipping the query
 *   builder (one round trip per read).
 */

interface SessionRow {
  id: number;
  phone: string;
  expires_at: number;
  revoked_at: number | null;
  /** When the session was last used (refreshed at most once a minute), or when it began. */
  last_seen_at: number;
}

export interface UserRow {
  id: number;
  phone: string;
  no: string;
  img: string | null;
  balance: number;
  has_fund_password: boolean;
  /** Principal of active fund orders, minor units. */
  funds: number;
  /** Outstanding loan principal (state 4), minor units. */
  loan: number;
  /** What the USD rate depends on in config (trading/fx.ts): `currency_unit`, `rate`, `rate_set_at`, as stored. */
  fx: { unit: string | undefined; rate: string | undefined; setAt: string | undefined };
}

export interface PositionRow {
  symbol: string;
  qty: number;
  cost: number;
}

export interface OpenBuyRow {
  mold: string;
  status: number;
  symbol: string;
  count: number;
  price: number;
  rate: number;
  price_all: number;
}

export interface HotReads {
  session(tokenHash: string): Promise<SessionRow | undefined>;
  balance(userId: number): Promise<number | undefined>;
  unreadCount(userId: number): Promise<number>;
  /** Everything user info needs: the user with its sums, open positions, and open buys. */
  userInfo(
    userId: number,
  ): Promise<{ user: UserRow; positions: PositionRow[]; orders: OpenBuyRow[] } | undefined>;
}

const SQL = {
  session: `select u.id, u.phone, s.expires_at, s.revoked_at, coalesce(s.last_seen_at, s.created_at) as last_seen_at
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ?`,
  balance: 'select balance from users where id = ?',
  // The predicate is the messages_unread partial index's own (literals, not parameters), so both
  // databases answer from that small index.
  unread: `select count(*) as n from messages
    where user_id = ? and sender = 'agent' and read_at is null`,
  user: `select u.id, u.phone, u.no, u.img, u.balance,
      case when u.fund_password_hash is null then 0 else 1 end as has_fund_password,
      (select coalesce(sum(f.amount), 0) from fund_orders f
        where f.user_id = u.id and f.status = 'active') as funds,
      (select coalesce(sum(l."count"), 0) from loans l
        where l.user_id = u.id and l.state = 4) as loan,
      (select c.value from config c where c.tag = 'currency_unit') as fx_unit,
      (select c.value from config c where c.tag = 'rate') as rate,
      (select c.value from config c where c.tag = 'rate_set_at') as rate_set_at
    from users u where u.id = ?`,
  positions: 'select symbol, qty, cost from positions where user_id = ? and qty > 0',
  // Money a buy still holds: pending stock buys and IPO applications (reserved), allotted IPO
  // shares and successful block/QIP lots (held). Each branch names the user so that each is a
  // search of orders_user (user_id, mold, status) — a heavy trader's closed orders are never read.
  orders: `select mold, status, symbol, "count", price, rate, price_all from orders
    where state = 'buy' and closed_at is null and (
      (user_id = ? and mold = 'stock' and status = ?)
      or (user_id = ? and mold = 'ipo' and status in (?, ?))
      or (user_id = ? and mold in ('bulk', 'finalize') and status = ?))`,
} as const;

/**
 * PostgreSQL: user info in one statement — one snapshot (three parallel queries on three pooled
 * connections could see a buy between them and count its money twice or not at all) and one round
 * trip instead of three. Positions and open buys come back as JSON arrays of arrays, in the
 * columns' order of SQL.positions and SQL.orders; bigint values are far below 2^53.
 */
const PG_USER_INFO = `select u.id, u.phone, u.no, u.img, u.balance,
    case when u.fund_password_hash is null then 0 else 1 end as has_fund_password,
    (select coalesce(sum(f.amount), 0) from fund_orders f
      where f.user_id = u.id and f.status = 'active') as funds,
    (select coalesce(sum(l."count"), 0) from loans l
      where l.user_id = u.id and l.state = 4) as loan,
    (select c.value from config c where c.tag = 'currency_unit') as fx_unit,
    (select c.value from config c where c.tag = 'rate') as rate,
    (select c.value from config c where c.tag = 'rate_set_at') as rate_set_at,
    (select coalesce(json_agg(json_build_array(p.symbol, p.qty, p.cost)), '[]') from positions p
      where p.user_id = u.id and p.qty > 0) as positions,
    (select coalesce(json_agg(json_build_array(o.mold, o.status, o.symbol, o."count", o.price, o.rate,
        o.price_all)), '[]') from orders o
      where o.state = 'buy' and o.closed_at is null and (
        (o.user_id = u.id and o.mold = 'stock' and o.status = $2)
        or (o.user_id = u.id and o.mold = 'ipo' and o.status in ($3, $4))
        or (o.user_id = u.id and o.mold in ('bulk', 'finalize') and o.status = $5))) as orders
  from users u where u.id = $1`;

type Name = keyof typeof SQL;

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

type Rows = Record<string, unknown>[];

interface Runner {
  one(name: Name, params: unknown[]): Promise<Record<string, unknown> | undefined>;
  /** PostgreSQL only: one row of PG_USER_INFO; null elsewhere (the batch is used there). */
  userInfoRow: ((params: unknown[]) => Promise<Record<string, unknown> | undefined>) | null;
  /** Several reads; on SQLite from one snapshot (a total must not mix before and after a buy). */
  batch(queries: Array<[Name, unknown[]]>): Promise<Rows[]>;
}

function sqliteRunner(reader: NonNullable<Database['reader']>): Runner {
  const statements = new Map(Object.entries(SQL).map(([name, text]) => [name, reader.prepare(text)]));
  const stmt = (name: Name) => statements.get(name)!;
  // A deferred read transaction on the reader: no lock, no fsync, one WAL snapshot for all.
  const snapshot = reader.transaction((queries: Array<[Name, unknown[]]>) =>
    queries.map(([name, params]) => stmt(name).all(...params) as Rows),
  );
  return {
    one: async (name, params) => stmt(name).get(...params) as Record<string, unknown> | undefined,
    userInfoRow: null,
    batch: async (queries) => snapshot(queries),
  };
}

function kyselyRunner(database: Database): Runner {
  const numbered = (text: string) => {
    if (database.dialect !== 'postgres') return text;
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  const texts = new Map(Object.entries(SQL).map(([name, text]) => [name, numbered(text)]));
  const run = async (name: Name, params: unknown[]) =>
    (await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(texts.get(name)!, params)))
      .rows;
  return {
    one: async (name, params) => (await run(name, params))[0],
    userInfoRow:
      database.dialect === 'postgres'
        ? async (params) =>
            (await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(PG_USER_INFO, params)))
              .rows[0]
        : null,
    batch: (queries) => Promise.all(queries.map(([name, params]) => run(name, params))),
  };
}

function createHotReads(database: Database): HotReads {
  const r = database.reader ? sqliteRunner(database.reader) : kyselyRunner(database);
  return {
    async session(tokenHash) {
      const row = await r.one('session', [tokenHash]);
      if (!row) return undefined;
      return {
        id: Number(row.id),
        phone: String(row.phone),
        expires_at: Number(row.expires_at),
        revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
        last_seen_at: Number(row.last_seen_at),
      };
    },
    async balance(userId) {
      const row = await r.one('balance', [userId]);
      return row ? Number(row.balance) : undefined;
    },
    async unreadCount(userId) {
      const row = await r.one('unread', [userId]);
      return Number(row?.n ?? 0);
    },
    async userInfo(userId) {
      let row: Record<string, unknown> | undefined;
      let positions: Rows;
      let orders: Rows;
      if (r.userInfoRow) {
        row = await r.userInfoRow([userId, STOCK.pending, IPO.pending, IPO.allotted, BLOCK.success]);
        if (!row) return undefined;
        const columns = (list: unknown, names: string[]) =>
          (list as unknown[][]).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]])));
        positions = columns(row.positions, ['symbol', 'qty', 'cost']);
        orders = columns(row.orders, ['mold', 'status', 'symbol', 'count', 'price', 'rate', 'price_all']);
      } else {
        const [users, p, o] = await r.batch([
          ['user', [userId]],
          ['positions', [userId]],
          ['orders', [userId, STOCK.pending, userId, IPO.pending, IPO.allotted, userId, BLOCK.success]],
        ]);
        row = users![0];
        if (!row) return undefined;
        positions = p!;
        orders = o!;
      }
      return {
        user: {
          id: Number(row.id),
          phone: String(row.phone),
          no: String(row.no),
          img: row.img === null ? null : String(row.img),
          balance: Number(row.balance),
          has_fund_password: Number(row.has_fund_password) === 1,
          // PostgreSQL sums bigint into numeric, which pg hands over as a string.
          funds: Number(row.funds),
          loan: Number(row.loan),
          fx: { unit: text(row.fx_unit), rate: text(row.rate), setAt: text(row.rate_set_at) },
        },
        positions: positions.map((p) => ({
          symbol: String(p.symbol),
          qty: Number(p.qty),
          cost: Number(p.cost),
        })),
        orders: orders.map((o) => ({
          mold: String(o.mold),
          status: Number(o.status),
          symbol: String(o.symbol),
          count: Number(o.count),
          price: Number(o.price),
          rate: Number(o.rate),
          price_all: Number(o.price_all),
        })),
      };
    },
  };
}

const cache = new WeakMap<Database, HotReads>();

/** The hot reads of `database`, prepared on first use. */
export function hotReads(database: Database): HotReads {
  let hot = cache.get(database);
  if (!hot) {
    hot = createHotReads(database);
    cache.set(database, hot);
  }
  return hot;
}
