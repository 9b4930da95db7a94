import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { requireVerified } from '../account/kyc-gate';
import { route } from '../lib/route';
import { usdRateAnswer } from '../trading/fx';
import { blockList } from '../trading/holdings';
import { applyIpo, ipoList } from '../trading/ipo';
import { toOrderRow } from '../trading/order-rows';
import { ipoOrders } from '../trading/records';

/** IPOs and block trading / QIP items (src/shared/contract/invest.ts): each route hands its input to server/trading/. */
export async function investRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  route(app, contract.fxRate, ({ db }) => usdRateAnswer(deps, db));
  route(app, contract.ipoList, ({ db }) => ipoList(deps, db));
  route(app, contract.ipoBuy, async ({ input, user, db }) => {
    await requireVerified(deps, db, user.id);
    return toOrderRow(await applyIpo(deps, db, user.id, input), deps.clock.now());
  });
  route(app, contract.ipoOrders, ({ input, user, db }) => ipoOrders(deps, db, user.id, input));
  route(app, contract.blockList, ({ input, db }) => blockList(deps, db, input));
}
