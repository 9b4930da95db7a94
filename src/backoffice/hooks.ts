import { useCallback, useEffect, useRef, useState } from 'react';
import type { OpsName, OpsReq, OpsRes } from '../shared/backoffice';
import { call, type Result, serverNow } from './api';
import { useMe } from './session';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  /** When the data was last fetched (epoch ms). */
  at: number | null;
  reload: () => void;
}

/**
 * A read of the back office's API, refetched every `everyMs` while the page is visible (as a poll:
 * it does not keep an idle session alive); `null` input skips the call.
 */
export function useOps<N extends OpsName>(name: N, input: OpsReq<N> | null, everyMs = 0): Loaded<OpsRes<N>> {
  const [state, setState] = useState<{ data?: OpsRes<N>; error: string | null; at: number | null }>({
    error: null,
    at: null,
  });
  const [loading, setLoading] = useState(input !== null);
  const key = input === null ? null : JSON.stringify(input);
  const seq = useRef(0);

  const load = useCallback(
    async (poll: boolean) => {
      if (key === null) return;
      const mine = ++seq.current;
      const r = await call(name, JSON.parse(key) as OpsReq<N>, { poll });
      if (mine !== seq.current) return;
      setLoading(false);
      setState((s) => (r.ok ? { data: r.data, error: null, at: Date.now() } : { ...s, error: r.error }));
    },
    [name, key],
  );

  useEffect(() => {
    setLoading(key !== null);
    setState({ error: null, at: null });
    void load(false);
    if (!everyMs || key === null) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load(true);
    }, everyMs);
    return () => clearInterval(timer);
  }, [key, everyMs, load]);

  return { data: state.data, error: state.error, loading, at: state.at, reload: () => void load(false) };
}

/** The server's time now (api.ts `serverNow`), ticking every `everyMs` (ages and timers on screen). */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const t = setInterval(() => setNow(serverNow()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** Keyboard shortcuts for a page: `map` key (a character, or a key name in lower case) → action; ignored while typing in a field. */
export function useKeys(map: Record<string, () => void>): void {
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const action = ref.current[e.key] ?? ref.current[e.key.toLowerCase()];
      if (action) {
        e.preventDefault();
        action();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * A decision's call as a page makes it: which one is running (its key, for the busy button), the
 * refusal or the outcome in words (none for a call that says nothing, a claim), and `after` (the
 * list's reload) once it has answered either way.
 */
export function useAction(after?: () => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const then = useRef(after);
  then.current = after;
  const run = useCallback(
    async <T>(key: string, op: () => Promise<Result<T>>, done?: string | ((data: T) => string)) => {
      setBusy(key);
      setError(null);
      setNote(null);
      const r = await op();
      setBusy(null);
      if (r.ok) setNote(typeof done === 'function' ? done(r.data) : (done ?? null));
      else setError(r.error);
      then.current?.();
      return r.ok;
    },
    [],
  );
  return { busy, error, note, run, setError };
}

/**
 * The maker-checker rule as a money page shows it, for an item's approval (a payout's, a
 * deposit's): Approve is offered to a member with the approve capability while it waits, and
 * cannot be pressed by the member who asked (`mine`) or once the item changed since (not intact).
 */
export function useSecondApproval() {
  const me = useMe();
  return (a: { status: string; maker: string; intact: boolean } | null) => {
    const waiting = a?.status === 'awaiting';
    const mine = waiting && a?.maker === `staff:${me.id}`;
    return { offered: waiting && me.caps.includes('approve'), mine, blocked: mine || !a?.intact };
  };
}

/**
 * The confirmation a decision asks first (DecisionDialog): what it is for (`ask`), Cancel, and
 * `confirm`, which closes it and makes the call.
 */
export function useConfirmation<C>(decide: (c: C) => void) {
  const [confirming, setConfirming] = useState<C | null>(null);
  return {
    confirming,
    ask: setConfirming,
    cancel: () => setConfirming(null),
    confirm: (c: C) => {
      setConfirming(null);
      decide(c);
    },
  };
}

/**
 * A rejection's dialog (DecisionDialog with a reason): which item, the reason written, and
 * `submit`, which closes it and sends the trimmed reason; a refused one keeps its words to send
 * again. `ready`: a reason is written (a page whose reason is optional says its own).
 */
export function useRejection<R>(send: (row: R, text: string) => Promise<boolean>) {
  const [row, setRow] = useState<R | null>(null);
  const [text, setText] = useState('');
  async function submit() {
    if (row === null) return;
    setRow(null);
    if (await send(row, text.trim())) setText('');
  }
  return { row, open: setRow, close: () => setRow(null), text, setText, ready: text.trim() !== '', submit };
}

type Run = ReturnType<typeof useAction>['run'];
interface Step<R, T> {
  call: (row: R) => Promise<Result<T>>;
  /** The outcome in words. */
  done: (row: R, data: T) => string;
}

/**
 * A money item's two decisions after their confirmation (a payout's, a deposit's): the first
 * (`first.kind`: pay, confirm), which the server may hold for a second member, and that member's
 * approval; each busy as `<kind>:<id>`.
 */
export function useTwoPersonDecision<R extends { id: number }, K extends string, T>(
  run: Run,
  first: Step<R, T> & { kind: K },
  approve: Step<R, unknown>,
) {
  return useConfirmation<{ row: R; kind: K | 'approve' }>(({ row, kind }) => {
    if (kind === 'approve')
      void run(
        `approve:${row.id}`,
        () => approve.call(row),
        (d) => approve.done(row, d),
      );
    else
      void run(
        `${first.kind}:${row.id}`,
        () => first.call(row),
        (d) => first.done(row, d),
      );
  });
}
