import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import type { Capability, WorkType } from '../shared/backoffice';
import { duration, MATCH_LABEL, ROLE_LABEL } from './format';
import { useKeys, useNow, useOps } from './hooks';
import { OPS_PATHS } from './paths';
import { StepUp } from './StepUp';
import { useMe, useSession } from './session';
import { Icon, type IconName, css as s } from './ui';

/**
 * The frame of every page: navigation (only what the member's role may open — the server refuses
 * the rest anyway), each queue's count, customer search (`/`), the theme, whether the second
 * factor is fresh, and sign-out.
 */

interface NavItem {
  to: string;
  label: string;
  icon: IconName;
  cap: Capability;
  work?: WorkType[];
}

const NAV: Array<{ group: string; items: NavItem[] }> = [
  {
    group: 'Work',
    items: [
      { to: OPS_PATHS.queues, label: 'Queues', icon: 'queue', cap: 'work' },
      { to: OPS_PATHS.customers, label: 'Customers', icon: 'people', cap: 'work' },
      { to: OPS_PATHS.chats, label: 'Chats', icon: 'chat', cap: 'chat', work: ['chat'] },
      { to: OPS_PATHS.kycList, label: 'Real-name', icon: 'id', cap: 'kyc', work: ['kyc'] },
      {
        to: OPS_PATHS.payouts,
        label: 'Payouts',
        icon: 'payout',
        cap: 'work',
        work: ['withdrawal', 'approval'],
      },
      { to: OPS_PATHS.deposits, label: 'Deposits', icon: 'deposit', cap: 'work', work: ['deposit'] },
      { to: OPS_PATHS.loans, label: 'Loans', icon: 'loan', cap: 'work', work: ['loan'] },
      { to: OPS_PATHS.ipo, label: 'IPO allotment', icon: 'ipo', cap: 'work', work: ['ipo'] },
    ],
  },
  {
    group: 'Settings',
    items: [
      { to: OPS_PATHS.fx, label: 'Exchange rate', icon: 'fx', cap: 'work' },
      { to: OPS_PATHS.news, label: 'News', icon: 'news', cap: 'news' },
      { to: OPS_PATHS.audit, label: 'Audit log', icon: 'audit', cap: 'audit' },
      { to: OPS_PATHS.staff, label: 'Staff', icon: 'people', cap: 'staff' },
    ],
  },
];

type Theme = 'light' | 'dark' | null;
const THEME_KEY = 'bourse.ops.theme';

function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(() => localStorage.getItem(THEME_KEY) as Theme);
  useEffect(() => {
    if (theme) document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  }, [theme]);
  const dark = theme === 'dark' || (theme === null && matchMedia('(prefers-color-scheme: dark)').matches);
  return [
    theme,
    () => {
      const next = dark ? 'light' : 'dark';
      localStorage.setItem(THEME_KEY, next);
      setTheme(next);
    },
  ];
}

/** The customer search box (exported for its DOM test). */
export function Search() {
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const found = useOps('customerSearch', q.trim().length >= 2 ? { q: q.trim() } : null);
  useKeys({ '/': () => input.current?.focus() });
  const rows = found.data ?? [];
  return (
    <search
      className={s.search}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <span className={s.searchIcon}>
        <Icon name="search" size={16} />
      </span>
      <label htmlFor="customer-search" className="visually-hidden">
        Find a customer by phone or its last 4 digits, card number or its last 4, PAN or ID number, account
        number or any part of the name
      </label>
      <input
        ref={input}
        id="customer-search"
        className={s.searchInput}
        placeholder="Phone, last 4, card, PAN, account or name"
        autoComplete="off"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && rows[0]) {
            navigate(OPS_PATHS.customer(rows[0].id));
            setOpen(false);
          }
          if (e.key === 'Escape') setOpen(false);
        }}
      />
      <span className={`${s.kbd} ${s.searchKbd}`} aria-hidden="true">
        /
      </span>
      {open && q.trim().length >= 2 && (
        <ul className={s.results} aria-label="Customers found">
          {rows.length === 0 && (
            <li className={`${s.result} ${s.muted}`}>{found.loading ? 'Searching…' : 'No customer found'}</li>
          )}
          {rows.map((c) => (
            <li key={c.id}>
              <Link className={s.result} to={OPS_PATHS.customer(c.id)} onClick={() => setOpen(false)}>
                <span className={s.strong}>{c.name ?? 'No name yet'}</span>
                <span className={s.mono}>{c.phone}</span>
                <span className={`${s.muted} ${s.small}`}>
                  {c.no} · {MATCH_LABEL[c.matched]}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </search>
  );
}

export function Shell({ children, flush }: { children: ReactNode; flush?: boolean }) {
  const me = useMe();
  const { signOut } = useSession();
  const [, toggleTheme] = useTheme();
  const now = useNow(5000);
  const queues = useOps('queues', me.caps.includes('work') ? {} : null, 15_000);
  const dark =
    document.documentElement.dataset.theme === 'dark' ||
    (!document.documentElement.dataset.theme && matchMedia('(prefers-color-scheme: dark)').matches);
  const fresh = me.freshUntil > now;
  const count = (work?: WorkType[]) => {
    if (!work || !queues.data) return null;
    const types = queues.data.types.filter((t) => work.includes(t.type));
    const n = types.reduce((a, t) => a + t.count, 0);
    const late = types.some((t) => t.oldestAt !== null && queues.data!.now - t.oldestAt > t.targetMs);
    return n > 0 ? { n, late } : null;
  };
  const initials = me.name
    .split(/\s+/)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .slice(0, 2)
    .join('');

  return (
    <div className={s.shell}>
      <a className={s.skip} href="#main">
        Skip to content
      </a>
      <aside className={s.side}>
        <div className={s.brand}>
          <span className={s.brandMark} aria-hidden="true">
            B
          </span>
          <span>
            Bourse<span className={s.brandSub}>Back office</span>
          </span>
        </div>
        <nav className={s.nav} aria-label="Back office">
          {NAV.map(({ group, items }) => {
            const mine = items.filter((i) => me.caps.includes(i.cap));
            if (mine.length === 0) return null;
            return (
              <div key={group}>
                <p className={s.navGroup}>{group}</p>
                {mine.map((i) => {
                  const c = count(i.work);
                  return (
                    <NavLink key={i.to} to={i.to} end={i.to === OPS_PATHS.queues} className={s.navLink}>
                      <Icon name={i.icon} />
                      <span>{i.label}</span>
                      {c && (
                        <span className={`${s.navCount} ${c.late ? s.navCountLate : ''}`}>
                          {c.n}
                          <span className="visually-hidden"> waiting</span>
                        </span>
                      )}
                    </NavLink>
                  );
                })}
              </div>
            );
          })}
        </nav>
        <div className={s.me}>
          <span className={s.avatar} aria-hidden="true">
            {initials}
          </span>
          <div>
            <p className={s.meName}>{me.name}</p>
            <p className={s.meRole}>{ROLE_LABEL[me.role]}</p>
          </div>
        </div>
      </aside>
      <header className={s.top}>
        {me.caps.includes('work') && <Search />}
        <span className={s.topSpacer} />
        <span
          className={s.fresh}
          title="Payouts, approvals, the rate and roles ask for a fresh second factor"
        >
          <span className={`${s.dot} ${fresh ? s.dotOn : ''}`} aria-hidden="true" />
          {fresh
            ? `Verified · ${duration(me.freshUntil - now)} left`
            : 'Second factor asked on sensitive actions'}
        </span>
        <button
          type="button"
          className={s.iconButton}
          onClick={toggleTheme}
          aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
        >
          <Icon name={dark ? 'sun' : 'moon'} />
        </button>
        <button type="button" className={`${s.button} ${s.ghost}`} onClick={() => void signOut()}>
          <Icon name="out" size={16} />
          Sign out
        </button>
      </header>
      <main id="main" className={`${s.main} ${flush ? s.mainFlush : ''}`}>
        {children}
      </main>
      <StepUp />
    </div>
  );
}
