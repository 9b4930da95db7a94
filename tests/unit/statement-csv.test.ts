import { describe, expect, it } from 'vitest';
import type { Statement } from '#shared/contract/portfolio';
import { statementCsv, statementFileName } from '../../workers/statement-csv';

const LABELS = {
  instrument: 'Instrument',
  name: 'Name',
  sold: 'Units sold',
  cost: 'Cost',
  proceeds: 'Proceeds',
  realised: 'Realised P&L',
  charges: 'Charges',
  net: 'Net',
  total: 'Total',
  currency: 'Currency',
};

const ST: Statement = {
  fy: 2026,
  years: [2026],
  from: 0,
  to: 1,
  rows: [
    {
      symbol: 'TCS.NS',
      name: 'Tata "Consultancy", Services',
      sold: 0,
      cost: '0.00',
      proceeds: '0.00',
      realised: '0.00',
      charges: '90.00',
      net: '-90.00',
    },
    {
      symbol: 'WIPRO.NS',
      name: '=HYPERLINK("x")',
      sold: 8,
      cost: '4000.00',
      proceeds: '4082.00',
      realised: '82.00',
      charges: '0.00',
      net: '82.00',
    },
  ],
  totals: {
    sold: 8,
    cost: '4000.00',
    proceeds: '4082.00',
    realised: '82.00',
    charges: '90.00',
    net: '-8.00',
  },
  as_of: 1,
};

describe('statement CSV', () => {
  it('is a spreadsheet-ready file: BOM, CRLF, quoted text, exact amounts, formulas kept as text', () => {
    const csv = statementCsv(ST, LABELS, 'INR');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Instrument,Name,Units sold,Cost,Proceeds,Realised P&L,Charges,Net,Currency',
      'TCS.NS,"Tata ""Consultancy"", Services",0,0.00,0.00,0.00,90.00,-90.00,INR',
      `WIPRO.NS,"'=HYPERLINK(""x"")",8,4000.00,4082.00,82.00,0.00,82.00,INR`,
      'Total,,8,4000.00,4082.00,82.00,90.00,-8.00,INR',
      '',
    ]);
  });

  it('names the file after the financial year', () => {
    expect(statementFileName(2026)).toBe('statement-2026-27.csv');
    expect(statementFileName(2099)).toBe('statement-2099-00.csv');
  });
});
