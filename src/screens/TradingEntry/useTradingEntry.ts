import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { ERR } from '../../shared/call';
import type { QuoteAnswer } from '../../shared/contract/market';

/**
 * What a code may be: a full symbol (RELIANCE.NS, AAPL, EURUSD=X, ES=F), or a code shown without
 * its suffix — an Indian stock without .NS/.BO, a currency pair without =X, a future without =F.
 */
export function candidateSymbols(code: string): string[] {
  const c = code.trim();
  if (!/^[A-Za-z0-9.=^_-]{1,32}$/.test(c)) return [];
  if (/\.(NS|BO)$/i.test(c) || c.includes('=') || c.includes('.')) return [c];
  return [c, `${c}.NS`, `${c}.BO`, `${c}=X`, `${c}=F`];
}

/** Answers that mean "no such instrument"; anything else (offline, timeout, server) can be retried. */
const UNKNOWN = new Set(['errors.unknownSymbol', ERR.notFound, ERR.invalidInput]);

export type Resolution =
  | { state: 'loading' }
  | { state: 'found'; quote: Omit<QuoteAnswer, 'rows'> }
  | { state: 'notFound' }
  | { state: 'error'; error: string };

/**
 * Trading entry (SPEC /trading/{code}): finds the instrument a code names, trying the display code
 * with the .NS and .BO suffixes it drops. A failed call is an error to retry, not "not found".
 */
export function useTradingEntry(code: string) {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<Resolution>({ state: 'loading' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the lookup on retry
  useEffect(() => {
    let alive = true;
    setResult({ state: 'loading' });
    void (async () => {
      for (const symbol of candidateSymbols(code)) {
        const answer = await call('quote', { symbol });
        if (!alive) return;
        if (answer.ok) return setResult({ state: 'found', quote: answer.data });
        if (!UNKNOWN.has(answer.error)) return setResult({ state: 'error', error: answer.error });
      }
      if (alive) setResult({ state: 'notFound' });
    })();
    return () => {
      alive = false;
    };
  }, [code, attempt]);

  return { result, retry: () => setAttempt((n) => n + 1) };
}
