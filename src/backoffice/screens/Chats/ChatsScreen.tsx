import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { KYC_STATUS, WITHDRAW_STATUS } from '../../../shared/status';
import { duration, exactly, KYC_LABEL, nameSource, rupees, stamp, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Button, Empty, ErrorLine, css as s, Tabs } from '../../ui';
import { TARGET, useChatCustomer, useChats, useThread } from './useChats';

/**
 * The chat inbox: conversations (mine, unassigned, all) with how long each customer
 * has waited; one conversation with its first-reply timer, the customer typing, "Read" on replies
 * the customer has seen, canned replies; the customer beside it. The customer's words are shown as
 * text (React escapes them; nothing here renders markup). Opening a conversation marks the
 * customer's messages read, which their app shows as "Read". The reads and decisions are
 * useChats'.
 */

/**
 * The canned replies in one row that scrolls sideways: a faded edge and an arrow on each side with
 * more to see, so a chip cut at the edge reads as "more this way", never as a label cut short.
 */
function CannedReplies({
  replies,
  onPick,
}: {
  replies: Array<{ id: number; title: string; body: string }>;
  onPick: (body: string) => void;
}) {
  const row = useRef<HTMLFieldSetElement>(null);
  const [edges, setEdges] = useState({ before: false, after: false });
  const measure = useCallback(() => {
    const el = row.current;
    if (!el) return;
    setEdges({
      before: el.scrollLeft > 1,
      after: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
    });
  }, []);
  useEffect(() => {
    measure();
    const el = row.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);
  const move = (dir: 1 | -1) => {
    const el = row.current;
    el?.scrollBy({ left: dir * el.clientWidth * 0.8 });
  };
  return (
    <div className={s.cannedBar}>
      <button
        type="button"
        className={s.iconButton}
        aria-label="Earlier canned replies"
        disabled={!edges.before}
        hidden={!edges.before && !edges.after}
        onClick={() => move(-1)}
      >
        ‹
      </button>
      <div
        className={`${s.cannedScroll} ${edges.before ? s.cannedFadeStart : ''} ${edges.after ? s.cannedFadeEnd : ''}`}
      >
        <fieldset ref={row} className={s.canned} onScroll={measure}>
          <legend className="visually-hidden">Canned replies</legend>
          {replies.map((c) => (
            <button key={c.id} type="button" className={s.chip} title={c.body} onClick={() => onPick(c.body)}>
              {c.title}
            </button>
          ))}
        </fieldset>
      </div>
      <button
        type="button"
        className={s.iconButton}
        aria-label="More canned replies"
        disabled={!edges.after}
        hidden={!edges.before && !edges.after}
        onClick={() => move(1)}
      >
        ›
      </button>
    </div>
  );
}

function Thread({ userId }: { userId: number }) {
  const c = useThread(userId);
  const { t, now, input, end } = c;

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void c.send();
    }
  }

  const waiting = t?.waitingSince ?? null;
  return (
    <section className={s.conv} aria-label="Conversation">
      <header className={s.convHead}>
        <div className={`${s.shrink} ${s.nowrap}`}>
          <div className={s.strong}>{t ? (t.name ?? t.phone) : 'Conversation'}</div>
          <div className={`${s.small} ${s.muted}`}>
            {t?.name && <span className={s.mono}>{t.phone} · </span>}
            {c.assignedTo ? `Assigned to ${c.assignedTo}` : 'Unassigned'}
          </div>
        </div>
        <span className={s.topSpacer} />
        {/* The timer and Assign keep together: on a narrow column they move below the name as one. */}
        <div className={s.actions}>
          {waiting !== null ? (
            <span
              className={`${s.timer} ${now - waiting > TARGET ? s.late : ''}`}
              role="timer"
              aria-live="off"
            >
              Waiting for a first reply · {duration(now - waiting)}
            </span>
          ) : t?.firstReplyMs !== null && t?.firstReplyMs !== undefined ? (
            <span className={`${s.timer} ${s.muted}`}>First reply in {duration(t.firstReplyMs)}</span>
          ) : null}
          {c.mineNow ? (
            <Button small tone="ghost" busy={c.busy === 'assign'} onClick={c.unassign}>
              Unassign
            </Button>
          ) : (
            <Button small busy={c.busy === 'assign'} onClick={c.assignToMe}>
              Assign to me
            </Button>
          )}
        </div>
      </header>
      <ol className={s.log} aria-label="Messages" aria-live="polite">
        {(t?.messages ?? []).map((m) =>
          m.automatic ? (
            <li key={m.id} className={`${s.msg} ${s.msgAuto}`}>
              <span className={s.msgMeta}>Automatic welcome · {stamp(m.at)}</span>
              <div className={s.bubble}>{m.body}</div>
            </li>
          ) : (
            <li key={m.id} className={`${s.msg} ${m.sender === 'agent' ? s.msgMe : s.msgThem}`}>
              <span className="visually-hidden">{m.sender === 'agent' ? 'Agent' : 'Customer'}: </span>
              <div className={s.bubble}>{m.body}</div>
              <span className={s.msgMeta}>
                <span title={exactly(m.at)}>{stamp(m.at)}</span>
                {m.sender === 'agent' && (m.readAt ? ' · Read' : ' · Delivered')}
              </span>
            </li>
          ),
        )}
        <li ref={end} aria-hidden="true" />
      </ol>
      <div className={s.typing} aria-live="polite">
        {t?.customerTyping ? 'The customer is typing…' : ''}
      </div>
      <form className={s.composer} onSubmit={c.send}>
        {c.canned.length > 0 && (
          <CannedReplies
            replies={c.canned}
            onPick={(body) => {
              c.onDraft(body);
              input.current?.focus();
            }}
          />
        )}
        <ErrorLine error={c.error} />
        <div className={s.composerRow}>
          <label htmlFor="reply" className="visually-hidden">
            Reply
          </label>
          <textarea
            ref={input}
            id="reply"
            className={s.composerInput}
            rows={3}
            maxLength={2000}
            placeholder="Write a reply — Enter sends, Shift+Enter adds a line"
            value={c.draft}
            onChange={(e) => c.onDraft(e.target.value)}
            onKeyDown={onKey}
          />
          <Button tone="primary" type="submit" busy={c.busy === 'send'} disabled={!c.draft.trim()}>
            Send
          </Button>
        </div>
      </form>
    </section>
  );
}

function CustomerAside({ userId }: { userId: number }) {
  const view = useChatCustomer(userId);
  const c = view.data;
  if (!c)
    return (
      <aside className={s.aside}>
        {view.error ? <ErrorLine error={view.error} /> : <span className={s.muted}>Loading…</span>}
      </aside>
    );
  const open = c.withdrawals.filter((w) => w.status === WITHDRAW_STATUS.inProgress);
  return (
    <aside className={s.aside} aria-label="Customer">
      <div>
        <div className={`${s.strong} ${s.asideName}`}>{c.customer.name ?? c.customer.phone}</div>
        <div className={`${s.small} ${s.muted}`}>{nameSource(c.customer)}</div>
        {c.customer.name && <div className={`${s.mono} ${s.muted}`}>{c.customer.phone}</div>}
      </div>
      <dl className={s.dl}>
        <dt>Account</dt>
        <dd className={s.mono}>{c.customer.no}</dd>
        <dt>Real-name</dt>
        <dd>
          <Badge
            tone={
              c.customer.kycStatus === KYC_STATUS.approved
                ? 'ok'
                : c.customer.kycStatus === KYC_STATUS.rejected
                  ? 'danger'
                  : undefined
            }
          >
            {KYC_LABEL[c.customer.kycStatus]}
          </Badge>
        </dd>
        <dt>Available</dt>
        <dd>{rupees(c.assets.available)}</dd>
        <dt>Total assets</dt>
        <dd>{rupees(c.assets.total)}</dd>
        <dt>Loan due</dt>
        <dd>{rupees(c.customer.loan)}</dd>
        <dt>Customer since</dt>
        <dd>{when(c.customer.createdAt)}</dd>
      </dl>
      {open.length > 0 && (
        <div className={`${s.stack} ${s.tight}`}>
          <div className={s.label}>Withdrawals in progress</div>
          {open.map((w) => (
            <div key={w.id} className={`${s.row} ${s.between}`}>
              <span>{rupees(w.amount)}</span>
              <Badge tone={w.hold ? 'warn' : undefined}>
                {w.approval?.status === 'awaiting' ? '2nd approval' : w.hold ? 'Held' : 'Rail'}
              </Badge>
            </div>
          ))}
        </div>
      )}
      {c.notes.length > 0 && (
        <div className={`${s.stack} ${s.tight}`}>
          <div className={s.label}>Staff notes</div>
          {c.notes.slice(0, 3).map((n) => (
            <p key={n.id} className={s.small}>
              {n.body} <span className={s.muted}>— {n.by}</span>
            </p>
          ))}
        </div>
      )}
      <Link className={`${s.button} ${s.smallButton} ${s.start}`} to={OPS_PATHS.customer(userId)}>
        Open the customer view
      </Link>
    </aside>
  );
}

export function ChatsScreen() {
  const l = useChats();
  const { me, userId, box, rows, now } = l;

  return (
    <div className={s.inbox}>
      <section className={s.inboxList} aria-label="Conversations">
        <div className={s.inboxHead}>
          <h1 className={`${s.title} ${s.titleSmall}`}>Chats</h1>
          <Tabs
            label="Which conversations"
            value={box}
            onChange={l.setBox}
            options={[
              ['mine', 'Mine'],
              ['unassigned', 'Unassigned'],
              ['all', 'All'],
            ]}
          />
        </div>
        <ErrorLine error={l.error} />
        {rows.length === 0 ? (
          <Empty>
            {l.loading
              ? 'Loading…'
              : box === 'mine'
                ? 'No conversation is assigned to you.'
                : 'No conversation here.'}
          </Empty>
        ) : (
          <ul className={s.threads}>
            {rows.map((c) => (
              <li key={c.userId}>
                <Link
                  className={s.thread}
                  to={OPS_PATHS.chat(c.userId)}
                  aria-current={c.userId === userId ? 'page' : undefined}
                  onKeyDown={(e) => {
                    if (e.key === 'ArrowDown')
                      (
                        e.currentTarget.parentElement?.nextElementSibling
                          ?.firstElementChild as HTMLElement | null
                      )?.focus();
                    if (e.key === 'ArrowUp')
                      (
                        e.currentTarget.parentElement?.previousElementSibling
                          ?.firstElementChild as HTMLElement | null
                      )?.focus();
                  }}
                >
                  <span className={s.threadTop}>
                    <span className={s.threadName}>{c.name ?? c.phone}</span>
                    {c.unread > 0 ? (
                      <span className={s.unreadDot}>{c.unread}</span>
                    ) : (
                      <span className={`${s.small} ${s.muted} ${s.nowrap}`}>{stamp(c.lastAt)}</span>
                    )}
                  </span>
                  <span className={s.threadLast}>
                    {c.lastSender === 'agent' ? 'You: ' : ''}
                    {c.last}
                  </span>
                  <span className={s.threadTop}>
                    <span className={`${s.small} ${s.muted}`}>
                      {c.assignedTo ? (c.assignedTo.id === me.id ? 'Mine' : c.assignedTo.name) : 'Unassigned'}
                    </span>
                    {c.waitingSince !== null && (
                      <span className={`${s.small} ${now - c.waitingSince > TARGET ? s.late : s.muted}`}>
                        waiting {duration(now - c.waitingSince)}
                      </span>
                    )}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      {userId ? (
        <>
          <Thread key={userId} userId={userId} />
          <CustomerAside userId={userId} />
        </>
      ) : (
        <section className={`${s.conv} ${s.convEmpty}`}>
          <div className={s.empty}>
            <p className={s.strong}>Pick a conversation</p>
            <p>Unanswered ones show how long the customer has waited.</p>
            {l.openOldest && (
              <Button className={s.spaced} onClick={l.openOldest}>
                Open the longest waiting
              </Button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
