import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router-dom';
import { call, downloadCsv } from '../../api';
import { useOps } from '../../hooks';

/**
 * One customer's page: the view (read once, reloaded after a decision), the team's note being
 * written and its call, and the statement's CSV, whose failure is said beside its button.
 */
export function useCustomer() {
  const id = Number(useParams().id);
  const view = useOps('customer', { id });
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  async function addNote(e: FormEvent) {
    e.preventDefault();
    const r = await call('noteAdd', { userId: id, body: note });
    if (!r.ok) return setError(r.error);
    setNote('');
    setError(null);
    view.reload();
  }

  return {
    id,
    view,
    note,
    setNote,
    addNote,
    noteError: error,
    exportError,
    exportStatement: async () =>
      setExportError(await downloadCsv('statementCsv', { userId: id }, `statement-${id}`)),
  };
}
