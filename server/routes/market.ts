import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { createSnapshot } from '../lib/snapshot';
import { chartQuestion, marketAnswers } from '../market/answers';

/**
 * The market calls of SPEC §7 (src/shared/contract/market.ts): answered by server/market/answers.ts
 * from the market provider alone, through the per-tick snapshot (server/lib/snapshot.ts).
 */
export async function marketRoutes(app: FastifyInstance): Promise<void> {
  // With CORS_ORIGINS the CORS plugin adds its headers through Fastify's reply: answers go through it.
  const snapshot = createSnapshot(app.deps.market, { replyHeaders: app.deps.config.corsOrigins.length > 0 });
  const answers = marketAnswers(app.deps);
  app.addHook('onClose', async () => snapshot.close());

  snapshot.route(app, contract.yahoo, answers.yahoo, chartQuestion);
  snapshot.route(app, contract.quote, answers.quote);
  snapshot.route(app, contract.stockList, answers.stockList);
  snapshot.route(app, contract.marketSearch, answers.marketSearch);
  snapshot.route(app, contract.depth, answers.depth);
  snapshot.route(app, contract.categoryList, answers.categoryList);
  snapshot.route(app, contract.indexList, answers.indexList);
  snapshot.route(app, contract.currencyList, answers.currencyList);
  snapshot.route(app, contract.marketList, answers.marketList);
}
