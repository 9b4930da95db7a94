import type { CallResult } from '#shared/contract/index';
import { type CsvLabels, statementCsv, statementFileName } from '../statement-csv';
import type { Context } from './context';

/** The portfolio domain: the realised P&L statement as a CSV file, built off the UI thread. */
export function portfolioApi(ctx: Context) {
  return {
    /** Fetches the year's statement and answers it as CSV text with its file name. */
    async statementCsv(
      fy: number,
      labels: CsvLabels,
      currency: string,
    ): Promise<CallResult<{ csv: string; fileName: string }>> {
      const answer = await ctx.request('portfolioStatement', { fy });
      if (!answer.ok) return answer;
      return {
        ok: true,
        data: {
          csv: statementCsv(answer.data, labels, currency),
          fileName: statementFileName(answer.data.fy),
        },
      };
    },
  };
}
