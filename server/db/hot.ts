import { CompiledQuery } from 'kysely';
import { UNIT_SCALE } from '#shared/funds';
import { MONEY_SCALE, PRICE_SCALE } from '#shared/money';
import {
  BLOCK_STATUS,
  FUND_ORDER_STATUS,
  IPO_STATUS,
  LOAN_STATE,
  STOCK_STATUS,
  WITHDRAW_STATUS,
} from '#shared/status';
import type { Database } from './index';
import type { SessionStage } from './schema';
import { numbered } from './statement';

/**
 * The reads every polling app pays for, several times a minute per user: the session behind a
 * token, user info, balance and the two unread counts (messages, the inbox). Each is one fixed SQL text on indexed columns
 * (sessions' primary key, users' primary key, positions_pk, orders_user, fund_orders_user, fund_positions_pk,
 * loans_user_state, messages_unread, notifications_user), written once for both databases:
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
  /** `full`, or the step of a two-factor sign-in (049_factors). */
  stage: SessionStage;
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
  /** Frozen by staff (users.frozen_at set; server/account/freeze.ts). */
  frozen: boolean;
  /**
   * Money in funds, minor units: units held at each fund's latest published NAV (HALF_UP per fund,
   * as `unitsValue` in src/shared/funds.ts) plus purchases waiting for their NAV
   * (server/funds/positions.ts `fundHoldings` gives the same figure with its lines).
   */
  funds: number;
  /** Outstanding loans (state 4): principal and what accrued on it, minor units. */
  loan: number;
  /** Withdrawals in progress (n): reserved at request, paid or refunded later, minor units. */
  withdrawing: number;
  /** What the USD rate depends on in config (trading/fx.ts): `currency_unit`, `rate`, `rate_set_at`, as stored. */
  fx: { unit: string | undefined; rate: string | undefined; setAt: string | undefined };
}

export interface PositionRow {
  symbol: string;
  qty: number;
  cost: number;
  /** Units held by pending sells. */
  reserved_qty: number;
  /** Cost in the instrument's currency, ticks × units (the average price's numerator). */
  cost_native: number;
  updated_at: number;
}

export interface OpenBuyRow {
  kind: string;
  status: number;
  symbol: string;
  qty: number;
  price: number;
  rate: number;
  price_all: number;
  /** Charges: a pending stock buy reserves them on top of `price_all` (its value). */
  fee: number;
  no: string;
  created_at: number;
  /** A block/QIP lot's lock-in end, or null. */
  unlock_at: number | null;
  /** The instrument's name and market as the order recorded them (an IPO may not be listed yet). */
  name: string;
  market: string;
  /** IN or US: the currency the lot was priced in when there is no instrument to ask. */
  region: string;
}

export interface HotReads {
  session(tokenHash: string): Promise<SessionRow | undefined>;
  balance(userId: number): Promise<number | undefined>;
  unreadCount(userId: number): Promise<number>;
  /** The inbox (price alerts fired): unread items and the id of the newest (0: none). */
  inboxUnread(userId: number): Promise<{ unread_count: number; latest_id: number }>;
  /** Everything user info needs: the user with its sums, open positions, and open buys. */
  userInfo(
    userId: number,
  ): Promise<{ user: UserRow; positions: PositionRow[]; orders: OpenBuyRow[] } | undefined>;
}

/**
 * The buys that still hold money: pending stock buys and IPO applications (reserved), allotted IPO
 * shares and successful block/QIP lots (held: Holdings lists them, portfolio/held.ts). Literals, not parameters: this is the predicate of
 * the partial index orders_open_buys (migration 049_open_buys, its columns renamed by 092) to the letter, which is what lets
 * both databases answer from it (tests/server/hot.test.ts checks the plans).
 */
const OPEN_BUYS = `side = 'buy' and closed_at is null and ((kind = 'stock' and status = ${STOCK_STATUS.pending}) or (kind = 'ipo' and status in (${IPO_STATUS.pending}, ${IPO_STATUS.allotted})) or (kind in ('bulk', 'finalize') and status = ${BLOCK_STATUS.success}))`;

/** Withdrawals still holding their money: the predicate of the partial index withdrawals_pending (081). */
const PENDING_WITHDRAWALS = `status = '${WITHDRAW_STATUS.inProgress}'`;

/** Thousandths of a unit × NAV ticks per minor unit: `unitsValue`'s divisor, for the SQL below. */
const UNIT_VALUE_DIVISOR = (UNIT_SCALE * PRICE_SCALE) / MONEY_SCALE;

const SQL = {
  session: `select u.id, u.phone, s.stage, s.expires_at, s.revoked_at, coalesce(s.last_seen_at, s.created_at) as last_seen_at
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ?`,
  balance: 'select balance from users where id = ?',
  // The predicate is the messages_unread partial index's own (literals, not parameters), so both
  // databases answer from that small index.
  unread: `select count(*) as n from messages
    where user_id = ? and sender = 'agent' and read_at is null`,
  // The inbox's unread items and the newest of them, from notifications_user (user_id, read_at, id).
  inbox: 'select count(*) as n, max(id) as latest from notifications where user_id = ? and read_at is null',
  userInfo: userInfoSql('sqlite'),
} as const;

/**
 * User info in one statement: one snapshot on both databases without a read transaction around
 * three reads (on SQLite that wrapper cost a third of the reads; on PostgreSQL three parallel
 * queries on three pooled connections could see a buy between them and count its money twice or
 * not at all), and one round trip. Open positions and open buys come back as JSON arrays of
 * arrays, in the field order of PositionRow and OpenBuyRow; integer values are far below 2^53.
 * - Open buys (`OPEN_BUYS`): one probe of the partial index orders_open_buys by user, so a heavy
 *   trader's filled and closed orders are never read. The one parameter is the user id.
 */
export function userInfoSql(dialect: 'sqlite' | 'postgres'): string {
  const array = (list: string) =>
    dialect === 'postgres'
      ? `coalesce(json_agg(json_build_array(${list})), '[]')`
      : `json_group_array(json_array(${list}))`;
  return `select u.id, u.phone, u.no, u.img, u.balance,
    case when u.fund_password_hash is null then 0 else 1 end as has_fund_password,
    case when u.frozen_at is null then 0 else 1 end as frozen,
    (select coalesce(sum(f.amount), 0) from fund_orders f
      where f.user_id = u.id and f.side = 'buy' and f.status = '${FUND_ORDER_STATUS.active}')
    + (select coalesce(sum((p.units * fu.nav + ${UNIT_VALUE_DIVISOR / 2}) / ${UNIT_VALUE_DIVISOR}), 0)
      from fund_positions p join funds fu on fu.id = p.fund_id
      where p.user_id = u.id and p.units > 0) as funds,
    (select coalesce(sum(l.due), 0) from loans l
      where l.user_id = u.id and l.status = ${LOAN_STATE.unpaid}) as loan,
    (select coalesce(sum(w.amount), 0) from withdrawals w
      where w.user_id = u.id and ${PENDING_WITHDRAWALS}) as withdrawing,
    (select c.value from config c where c.tag = 'currency_unit') as fx_unit,
    (select c.value from config c where c.tag = 'rate') as rate,
    (select c.value from config c where c.tag = 'rate_set_at') as rate_set_at,
    (select ${array('p.symbol, p.qty, p.cost, p.reserved_qty, p.cost_native, p.updated_at')} from positions p
      where p.user_id = u.id and p.qty > 0) as positions,
    (select ${array('o.kind, o.status, o.symbol, o.qty, o.price, o.rate, o.price_all, o.fee, o.no, o.created_at, o.unlock_at, o.name, o.market, o.region')} from orders o
      where o.user_id = u.id and ${OPEN_BUYS}) as orders
  from users u where u.id = ?`;
}

type Name = keyof typeof SQL;

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/**
 * A row as its values in the order the statement selects them, on both databases: better-sqlite3
 * in raw mode and pg's array rows hand over one array, where a named row object costs a property
 * set from C++ per column (user info has fifteen) and then the mapping below reads it again.
 */
type Values = readonly unknown[];

interface Runner {
  one(name: Name, params: unknown[]): Promise<Values | undefined>;
}

function sqliteRunner(reader: NonNullable<Database['reader']>): Runner {
  const statements = new Map(
    Object.entries(SQL).map(([name, text]) => [name, reader.prepare(text).raw(true)]),
  );
  return {
    one: async (name, params) => statements.get(name)!.get(...params) as Values | undefined,
  };
}

/*
 * PostgreSQL: each read is a named prepared statement, parsed and planned once per pooled
 * connection instead of on every call (user info's seven subqueries were planned per answer).
 */
function postgresRunner(pool: NonNullable<Database['pool']>, timing: Database['timing']): Runner {
  const texts = new Map(
    Object.entries(SQL).map(([name, text]) => [
      name,
      numbered(name === 'userInfo' ? userInfoSql('postgres') : text),
    ]),
  );
  const query = async (name: string, params: unknown[]) =>
    (
      await pool.query<unknown[]>({
        name: `bourse_hot_${name}`,
        text: texts.get(name)!,
        values: params,
        rowMode: 'array',
      })
    ).rows[0];
  return {
    one: async (name, params) => {
      const listen = timing.onQuery;
      if (listen === null) return query(name, params);
      const started = performance.now();
      try {
        const row = await query(name, params);
        listen('select', performance.now() - started, false);
        return row;
      } catch (err) {
        listen('select', performance.now() - started, true);
        throw err;
      }
    },
  };
}

/** SQLite in memory (tests): no second connection to read from, so the same SQL through Kysely. */
function memoryRunner(database: Database): Runner {
  return {
    one: async (name, params) => {
      const row = (
        await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(SQL[name], params))
      ).rows[0];
      // Column names are never integer-like, so the keys keep the select's order.
      return row && Object.values(row);
    },
  };
}

/** A JSON array column: text on SQLite, already parsed by pg on PostgreSQL. */
const arrays = (value: unknown): unknown[][] =>
  (typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];

function createHotReads(database: Database): HotReads {
  const r = database.reader
    ? sqliteRunner(database.reader)
    : database.pool
      ? postgresRunner(database.pool, database.timing)
      : memoryRunner(database);
  return {
    async session(tokenHash) {
      const row = await r.one('session', [tokenHash]);
      if (!row) return undefined;
      // id, phone, stage, expires_at, revoked_at, last_seen_at (SQL.session)
      const [id, phone, stage, expires, revoked, seen] = row;
      return {
        id: Number(id),
        phone: String(phone),
        stage: String(stage) as SessionStage,
        expires_at: Number(expires),
        revoked_at: revoked === null ? null : Number(revoked),
        last_seen_at: Number(seen),
      };
    },
    async balance(userId) {
      const row = await r.one('balance', [userId]);
      return row ? Number(row[0]) : undefined;
    },
    async unreadCount(userId) {
      const row = await r.one('unread', [userId]);
      return Number(row?.[0] ?? 0);
    },
    async inboxUnread(userId) {
      const row = await r.one('inbox', [userId]);
      return { unread_count: Number(row?.[0] ?? 0), latest_id: Number(row?.[1] ?? 0) };
    },
    async userInfo(userId) {
      const row = await r.one('userInfo', [userId]);
      if (!row) return undefined;
      // The columns of userInfoSql, in its order.
      const [
        id,
        phone,
        no,
        img,
        balance,
        hasFundPassword,
        frozen,
        funds,
        loan,
        withdrawing,
        fxUnit,
        rate,
        rateSetAt,
        positions,
        orders,
      ] = row;
      return {
        user: {
          id: Number(id),
          phone: String(phone),
          no: String(no),
          img: img === null ? null : String(img),
          balance: Number(balance),
          has_fund_password: Number(hasFundPassword) === 1,
          frozen: Number(frozen) === 1,
          // PostgreSQL sums bigint into numeric, which pg hands over as a string.
          funds: Number(funds),
          loan: Number(loan),
          withdrawing: Number(withdrawing),
          fx: { unit: text(fxUnit), rate: text(rate), setAt: text(rateSetAt) },
        },
        positions: arrays(positions).map(([symbol, qty, cost, reserved, native, updated]) => ({
          symbol: String(symbol),
          qty: Number(qty),
          cost: Number(cost),
          reserved_qty: Number(reserved),
          cost_native: Number(native),
          updated_at: Number(updated),
        })),
        orders: arrays(orders).map(
          ([
            kind,
            status,
            symbol,
            qty,
            price,
            rate,
            price_all,
            fee,
            no,
            created,
            unlock,
            name,
            market,
            region,
          ]) => ({
            kind: String(kind),
            status: Number(status),
            symbol: String(symbol),
            qty: Number(qty),
            price: Number(price),
            rate: Number(rate),
            price_all: Number(price_all),
            fee: Number(fee),
            no: String(no),
            created_at: Number(created),
            unlock_at: unlock === null ? null : Number(unlock),
            name: String(name),
            market: String(market),
            region: String(region),
          }),
        ),
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
