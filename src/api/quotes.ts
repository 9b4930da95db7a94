import { useMemo, useSyncExternalStore } from 'react';
import type { QuoteDelta } from '../../workers/quotes';
import { listen, worker } from './client';
import { useOnline } from './connection';

/**
 * Live prices on the UI side: one Comlink callback per window receives the worker's batches of
 * changed prices; components subscribe per symbol, so a price change re-renders only the rows that
 * show it. A symbol nobody has priced yet in this session is asked of the worker, which answers from
 * the device (the last known price, `source: 'device'`).
 */
type LiveQuote = QuoteDelta;

const known = new Map<string, LiveQuote>();
const listeners = new Map<string, Set<() => void>>();
let connected = false;
const wanted = new Set<string>();
let askScheduled = false;

function set(q: LiveQuote): void {
  known.set(q.symbol, q);
  const ls = listeners.get(q.symbol);
  if (ls) for (const l of ls) l();
}

function connect(): void {
  if (connected) return;
  connected = true;
  listen('quotes', (deltas: LiveQuote[]) => {
    for (const d of deltas) set(d);
  });
}

/** Symbols first seen in one render are asked for in one message. */
function ask(symbol: string): void {
  wanted.add(symbol);
  if (askScheduled) return;
  askScheduled = true;
  queueMicrotask(() => {
    askScheduled = false;
    const symbols = [...wanted];
    wanted.clear();
    void worker()
      .quotes(symbols)
      .then((qs) => {
        // A live delta that arrived meanwhile is newer than a device read.
        for (const q of qs) {
          const current = known.get(q.symbol);
          if (!current || current.source === 'device' || q.source === 'network') set(q);
        }
      });
  });
}

function subscribe(symbol: string, onChange: () => void): () => void {
  connect();
  let ls = listeners.get(symbol);
  if (!ls) {
    ls = new Set();
    listeners.set(symbol, ls);
  }
  ls.add(onChange);
  if (!known.has(symbol)) ask(symbol);
  return () => {
    ls.delete(onChange);
    if (!ls.size) listeners.delete(symbol);
  };
}

export interface QuoteView {
  quote: LiveQuote | undefined;
  /** From the device (not seen live this session) or offline: show its as-of time. */
  stale: boolean;
}

/** The live price of one symbol (from any answer that priced it), or its last known one. */
export function useQuote(symbol: string | null | undefined): QuoteView {
  const sub = useMemo(() => (symbol ? (cb: () => void) => subscribe(symbol, cb) : () => () => {}), [symbol]);
  const quote = useSyncExternalStore(
    sub,
    () => (symbol ? known.get(symbol) : undefined),
    () => undefined,
  );
  const online = useOnline();
  return { quote, stale: quote !== undefined && (quote.source === 'device' || !online) };
}

/** Forgets prices on this side (logout). */
export function clearQuotes(): void {
  known.clear();
  for (const ls of listeners.values()) for (const l of ls) l();
}
