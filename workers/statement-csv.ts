import type { Statement } from '#shared/contract/portfolio';

/** The column titles, in the user's language (the UI passes them in). */
export interface CsvLabels {
  instrument: string;
  name: string;
  sold: string;
  cost: string;
  proceeds: string;
  realised: string;
  charges: string;
  net: string;
  total: string;
  currency: string;
}

/**
 * The realised P&L statement as CSV a spreadsheet opens as it is: RFC 4180 quoting, CRLF line
 * ends, a UTF-8 byte-order mark (so Excel reads non-ASCII names and titles), amounts as the
 * server's exact decimal strings with no grouping or symbol (so they stay numbers), and a text
 * that starts like a formula (=, +, -, @) kept as text, never run.
 */
export function statementCsv(st: Statement, labels: CsvLabels, currency: string): string {
  const head = [
    labels.instrument,
    labels.name,
    labels.sold,
    labels.cost,
    labels.proceeds,
    labels.realised,
    labels.charges,
    labels.net,
    labels.currency,
  ];
  const lines = [head.map(text).join(',')];
  for (const r of st.rows) {
    lines.push(
      [
        text(r.symbol),
        text(r.name),
        String(r.sold),
        r.cost,
        r.proceeds,
        r.realised,
        r.charges,
        r.net,
        text(currency),
      ].join(','),
    );
  }
  const t = st.totals;
  lines.push(
    [
      text(labels.total),
      '',
      String(t.sold),
      t.cost,
      t.proceeds,
      t.realised,
      t.charges,
      t.net,
      text(currency),
    ].join(','),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** One text cell: quoted when it must be, and never a formula. */
function text(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** statement-2026-27.csv */
export function statementFileName(fy: number): string {
  return `statement-${fy}-${String((fy + 1) % 100).padStart(2, '0')}.csv`;
}
