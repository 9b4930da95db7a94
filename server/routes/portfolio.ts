import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { route } from '../lib/route';
import { portfolioHistory } from '../portfolio/snapshots';
import { statement } from '../portfolio/statement';
import { portfolioSummary } from '../portfolio/valuation';

/** The portfolio (src/shared/contract/portfolio.ts, server/portfolio/): reads only. */
export async function portfolioRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  route(app, contract.portfolioSummary, ({ user }) => portfolioSummary(deps, user.id));
  route(app, contract.portfolioHistory, ({ user, input }) => portfolioHistory(deps, user.id, input.range));
  route(app, contract.portfolioStatement, ({ user, input }) => statement(deps, user.id, input.fy));
}
