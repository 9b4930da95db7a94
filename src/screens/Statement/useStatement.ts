import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statementCsv } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { toast } from '../../store/ui';

type Labels = Parameters<typeof statementCsv>[1];
/** The column titles' keys: the prefix, then the column. */
const CSV_KEYS = 'portfolio.statement.csv.';
const CSV_COLUMNS: Array<keyof Labels> = [
  'instrument',
  'name',
  'sold',
  'cost',
  'proceeds',
  'realised',
  'charges',
  'net',
  'total',
  'currency',
];

/** A statement changes only when the user sells or pays a charge: a minute is fresh enough. */
const STATEMENT_POLL_MS = 60_000;

/**
 * The realised P&L statement of one financial year (the current one until the user picks another)
 * and its CSV download, which the sync worker builds from the same answer.
 */
export function useStatement() {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const [fy, setFy] = useState<number | undefined>(undefined);
  const statement = useWatch('portfolioStatement', fy === undefined ? {} : { fy }, STATEMENT_POLL_MS);
  const [preparing, setPreparing] = useState(false);

  async function download() {
    const year = statement.data?.fy;
    if (year === undefined) return;
    setPreparing(true);
    try {
      const labels = Object.fromEntries(
        CSV_COLUMNS.map((key) => [key, t(CSV_KEYS + key)]),
      ) as unknown as Labels;
      const answer = await statementCsv(year, labels, currency.unit);
      if (!answer.ok) {
        toast(answer.error, 'error');
        return;
      }
      // The file is made here, where the document is: a Blob URL the browser saves under its name.
      const url = URL.createObjectURL(new Blob([answer.data.csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = answer.data.fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast('portfolio.statement.downloaded', 'success');
    } finally {
      setPreparing(false);
    }
  }

  return { fy: statement.data?.fy ?? fy, setFy, statement, download, preparing };
}
