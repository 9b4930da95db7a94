import { proxy } from 'comlink';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { type CallResult, stableJson } from '../shared/call';
import type { EndpointName } from '../shared/contract/index';
import { type Input, type Output, subscription, worker } from './client';
import { useLowData, useOnline } from './connection';
import { noteFirstPoll } from './firstPolls';

export interface Watched<T> {
  data: T | undefined;
  /** i18n key of the last failure, cleared by the next success. */
  error: string | null;
  /** True until the first answer (good or bad, from the network or the device) arrives. */
  loading: boolean;
  /** Epoch ms of the data shown (its as-of: when the server gave it). */
  updatedAt: number | null;
  /** Where the data shown came from: this session's network, or the device (last known). */
  source: 'network' | 'device' | null;
  /**
   * The data shown is not live: it came from the device, the last refresh failed, or the app is
   * offline. Screens then show `<AsOf at={updatedAt} stale />` beside it (DESIGN rule 7).
   */
  stale: boolean;
  /** How often it is refreshed (doubled in low-data mode): its age is judged against this (AsOf `every`). */
  intervalMs: number;
}

interface State<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  updatedAt: number | null;
  source: 'network' | 'device' | null;
}

/**
 * Subscribes a screen to a shared poll of the sync worker for as long as it is mounted. Two screens
 * watching the same endpoint with the same input share one request. `intervalMs: 0` loads once.
 * Calls kept for offline (workers/answers.ts) show the last known answer at once, from the device.
 */
export function useWatch<K extends EndpointName>(
  name: K,
  input: Input<K> | null,
  intervalMs: number,
): Watched<Output<K>> & { reload: () => void } {
  const key = input === null ? null : stableJson(input);
  const online = useOnline();
  const lowData = useLowData();
  const [state, setState] = useState<State<Output<K>>>({
    data: undefined,
    error: null,
    loading: true,
    updatedAt: null,
    source: null,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the input's identity
  const stableInput = useMemo(() => input, [key]);

  useEffect(() => {
    if (stableInput === null) return;
    let alive = true;
    // A new input: keep showing the old data until the new arrives, from wherever it comes first.
    setState((s) => ({ ...s, loading: s.data === undefined, source: null }));
    const onUpdate = proxy((result: CallResult<Output<K>>, at: number, source: 'network' | 'device') => {
      if (!alive) return;
      // An answer re-renders its screen as a transition: in slices React can pause, so a screen
      // taking in several answers at once never holds the main thread in one long task.
      startTransition(() =>
        setState((s) => {
          if (!result.ok) return { ...s, error: result.error, loading: false };
          // The device's copy never replaces what the network already gave.
          if (source === 'device' && s.source === 'network') return s;
          return { data: result.data, error: null, loading: false, updatedAt: at, source };
        }),
      );
    });
    const interval = intervalMs > 0 ? intervalMs : 24 * 3600 * 1000;
    noteFirstPoll(name, stableInput);
    const end = subscription(() => worker().watch(name, stableInput, interval, onUpdate as never));
    return () => {
      alive = false;
      end();
    };
  }, [name, stableInput, intervalMs]);

  const reload = () => {
    if (stableInput !== null) void worker().refresh(name, stableInput);
  };
  const stale = state.data !== undefined && (state.source === 'device' || state.error !== null || !online);
  return { ...state, stale, reload, intervalMs: intervalMs * (lowData ? 2 : 1) };
}
