import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { QueueItem, WorkType } from '../../shared/backoffice';
import { call, downloadCsv } from '../api';
import { duration, rupees, WORK_LABEL } from '../format';
import { useKeys, useNow, useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Empty, ErrorLine, PageHead, css as s } from '../ui';

/**
 * The work queues: per type the count and the age of the oldest item against its
 * target, and one list of everything waiting, the most overdue first. Claim an item to show the
 * others it is taken. Keyboard: j / k move, Enter opens, c claims or releases.
 */

/** Each type's badge: a routine kind of work, never an alarm (lateness is the Waiting column's). */
const TONE: Record<WorkType, 'info' | 'warn' | undefined> = {
  chat: 'info',
  approval: undefined,
  deposit: 'info',
  withdrawal: 'warn',
  kyc: 'info',
  loan: undefined,
  ipo: undefined,
  account: 'warn',
};

/** One item's kind, short (the tiles name the whole queues). */
const ITEM_LABEL: Record<WorkType, string> = {
  chat: 'Chat',
  approval: '2nd approval',
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  kyc: 'Real-name',
  loan: 'Loan',
  ipo: 'IPO',
  account: 'Account control',
};

const keyOf = (i: Pick<QueueItem, 'type' | 'id'>) => `${i.type}:${i.id}`;

/** Where an item is worked on. */
export function pathOf(item: Pick<QueueItem, 'type' | 'id'>): string {
  switch (item.type) {
    case 'kyc':
      return OPS_PATHS.kyc(item.id);
    case 'chat':
      return OPS_PATHS.chat(item.id);
    case 'withdrawal':
    case 'approval':
      return OPS_PATHS.payout(item.id);
    case 'deposit':
      return OPS_PATHS.deposit(item.id);
    case 'loan':
      return OPS_PATHS.loans;
    case 'ipo':
      return OPS_PATHS.ipo;
    case 'account':
      return OPS_PATHS.customer(item.id);
  }
}

/** Where a whole type of work is listed. */
const LIST_OF: Record<WorkType, string> = {
  kyc: OPS_PATHS.kycList,
  chat: OPS_PATHS.chats,
  withdrawal: OPS_PATHS.payouts,
  approval: OPS_PATHS.payouts,
  deposit: OPS_PATHS.deposits,
  loan: OPS_PATHS.loans,
  ipo: OPS_PATHS.ipo,
  // Each control is decided on its customer's page; the queue lists them.
  account: OPS_PATHS.queues,
};

export function Queues() {
  const me = useMe();
  const q = useOps('queues', {}, 10_000);
  const now = useNow(1000);
  const navigate = useNavigate();
  // The cursor is an item, not a row number: a list that reorders or loses an item under it keeps
  // it on the same item (or the one now in its place), so Enter opens what is highlighted.
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const items = q.data?.items ?? [];
  const found = items.findIndex((i) => keyOf(i) === selected);
  const at = Math.max(found, 0);
  const serverNow = now;
  const moveTo = (n: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, n))];
    if (item) setSelected(keyOf(item));
  };

  async function toggle(item: QueueItem) {
    const mine = item.claimedBy?.id === me.id;
    setSelected(keyOf(item));
    const r = await call('claim', { type: item.type, id: item.id, staffId: mine ? null : me.id });
    setError(r.ok ? null : r.error);
    q.reload();
  }

  useKeys({
    j: () => moveTo(at + 1),
    k: () => moveTo(at - 1),
    enter: () => items[at] && navigate(pathOf(items[at])),
    c: () => items[at] && void toggle(items[at]),
  });

  return (
    <>
      <PageHead title="Queues" subtitle="Everything waiting for a person, the most overdue first.">
        <span className={`${s.small} ${s.muted}`}>
          <span className={s.kbd}>j</span> <span className={s.kbd}>k</span> move ·{' '}
          <span className={s.kbd}>Enter</span> open · <span className={s.kbd}>c</span> claim
        </span>
        <Button small onClick={async () => setError(await downloadCsv('queuesCsv', {}, 'queue'))}>
          Export CSV
        </Button>
      </PageHead>
      <ErrorLine error={q.error ?? error} />
      <section className={s.tiles} aria-label="Queues by type">
        {(q.data?.types ?? []).map((t) => {
          const age = t.oldestAt === null ? 0 : serverNow - t.oldestAt;
          const share = Math.min(1, age / t.targetMs);
          const late = age > t.targetMs;
          return (
            <Link key={t.type} className={s.tile} to={LIST_OF[t.type]}>
              <span className={s.tileLabel}>{WORK_LABEL[t.type]}</span>
              <span className={s.tileCount}>{t.count}</span>
              <span className={`${s.tileMeta} ${late ? s.late : ''}`}>
                {t.oldestAt === null ? 'Nothing waiting' : `Oldest ${duration(age)}`}
              </span>
              <span className={s.tileMeta}>Target {duration(t.targetMs)}</span>
              <span className={s.bar} aria-hidden="true">
                <span
                  className={`${s.barFill} ${late ? s.barLate : share > 0.6 ? s.barWarn : ''}`}
                  style={{ width: `${Math.max(t.count ? 4 : 0, share * 100)}%` }}
                />
              </span>
            </Link>
          );
        })}
      </section>
      <Card title={`All work · ${items.length}`} flush>
        {items.length === 0 ? (
          <Empty>{q.loading ? 'Loading…' : 'Nothing is waiting. Well done.'}</Empty>
        ) : (
          <div className={s.tableWrap}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th>Type</th>
                  <th>Item</th>
                  <th>Customer</th>
                  <th className={s.num}>Amount</th>
                  <th className={s.num}>Waiting</th>
                  <th>Taken by</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((i, n) => (
                  <tr
                    key={keyOf(i)}
                    className={n === at ? s.rowActive : undefined}
                    aria-selected={n === at}
                    onClick={() => setSelected(keyOf(i))}
                  >
                    <td>
                      <Badge tone={TONE[i.type]}>{ITEM_LABEL[i.type]}</Badge>
                    </td>
                    <td>
                      <Link to={pathOf(i)} className={s.strong}>
                        {i.title}
                      </Link>
                      <div className={`${s.muted} ${s.small} ${s.ellipsis}`} title={i.detail}>
                        {i.detail}
                      </div>
                    </td>
                    <td>
                      {i.customerId ? (
                        <>
                          <Link className={s.nowrap} to={OPS_PATHS.customer(i.customerId)}>
                            {i.customerName ?? i.customerPhone}
                          </Link>
                          {i.customerName && (
                            <div className={`${s.small} ${s.muted} ${s.mono}`}>{i.customerPhone}</div>
                          )}
                        </>
                      ) : (
                        <span className={s.muted}>—</span>
                      )}
                    </td>
                    <td className={`${s.num} ${s.strong}`}>{i.amount ? rupees(i.amount) : ''}</td>
                    <td className={s.num}>
                      <Age since={i.since} now={serverNow} target={i.targetMs} />
                      <div className={`${s.small} ${s.muted}`}>of {duration(i.targetMs)}</div>
                    </td>
                    <td>
                      {i.claimedBy ? (
                        i.claimedBy.id === me.id ? (
                          'You'
                        ) : (
                          i.claimedBy.name
                        )
                      ) : (
                        <span className={s.muted}>Nobody</span>
                      )}
                    </td>
                    <td className={s.num}>
                      {(!i.claimedBy || i.claimedBy.id === me.id || me.role === 'admin') && (
                        <Button
                          small
                          tone={i.claimedBy?.id === me.id ? 'ghost' : 'default'}
                          onClick={() => void toggle(i)}
                        >
                          {i.claimedBy?.id === me.id ? 'Release' : i.claimedBy ? 'Take over' : 'Claim'}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
