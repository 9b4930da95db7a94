import { useState } from 'react';
import { call } from '../../api';
import { useAction, useOps } from '../../hooks';
import { useMe } from '../../session';

/**
 * The USD rate's data and its one decision: set the configured rate (an approver's, after its
 * effect is previewed), through `useAction`.
 */
export function useFx() {
  const me = useMe();
  const state = useOps('fx', {}, 30_000);
  const [rate, setRate] = useState('');
  const sets = me.caps.includes('approve');
  const preview = useOps('fxPreview', sets && rate.trim() ? { rate: rate.trim() } : null);
  const action = useAction(state.reload);
  const set = () => {
    const value = rate.trim();
    void action.run('set', () => call('fxSet', { rate: value }), `Configured rate set to ${value}.`);
  };
  return {
    st: state.data,
    /** Only an approver sets the rate. */
    sets,
    rate,
    setRate,
    preview: preview.data,
    previewError: preview.error,
    busy: action.busy === 'set',
    error: state.error ?? action.error,
    note: action.note,
    set,
  };
}
