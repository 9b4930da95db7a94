import { Link } from 'react-router-dom';
import type { WorkType } from '../../../shared/backoffice';
import { duration, rupees, WORK_LABEL } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Age, Badge, Button, Card, Empty, ErrorLine, PageHead, css as s } from '../../ui';
import { keyOf, LIST_OF, pathOf, useQueues } from './useQueues';

/**
 * The work queues: per type the count and the age of the oldest item against its
 * target, and one list of everything waiting, the most overdue first. Claim an item to show the
 * others it is taken. Keyboard: j / k move, Enter opens, c claims or releases. The decisions are
 * useQueues'.
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

export function QueuesScreen() {
  const q = useQueues();
  const { me, items } = q;

  return (
    <>
      <PageHead title="Queues" subtitle="Everything waiting for a person, the most overdue first.">
        <span className={`${s.small} ${s.muted}`}>
          <span className={s.kbd}>j</span> <span className={s.kbd}>k</span> move ·{' '}
          <span className={s.kbd}>Enter</span> open · <span className={s.kbd}>c</span> claim
        </span>
        <Button small onClick={q.exportCsv}>
          Export CSV
        </Button>
      </PageHead>
      <ErrorLine error={q.error} />
      <section className={s.tiles} aria-label="Queues by type">
        {q.types.map((t) => {
          const age = t.oldestAt === null ? 0 : q.now - t.oldestAt;
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
                    className={n === q.at ? s.rowActive : undefined}
                    aria-selected={n === q.at}
                    onClick={() => q.select(i)}
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
                      <Age since={i.since} now={q.now} target={i.targetMs} />
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
                      {q.claimable(i) && (
                        <Button
                          small
                          tone={q.mine(i) ? 'ghost' : 'default'}
                          busy={q.claiming(i)}
                          onClick={() => q.toggle(i)}
                        >
                          {q.mine(i) ? 'Release' : i.claimedBy ? 'Take over' : 'Claim'}
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
