import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { requireVerified } from '../account/kyc-gate';
import { fundList, fundNav, fundOrders } from '../funds/answers';
import { cancelFundOrder, purchaseFund, redeemFund } from '../funds/orders';
import { fundPositions } from '../funds/positions';
import { route } from '../lib/route';

/** Mutual funds (src/shared/contract/funds.ts): each route hands its input to server/funds/. */
export async function fundRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  route(app, contract.fundList, ({ db }) => fundList(deps, db));
  route(app, contract.fundNav, ({ input, db }) => fundNav(deps, db, input));
  route(app, contract.fundPurchase, async ({ input, user, db }) => {
    await requireVerified(deps, db, user.id);
    return purchaseFund(deps, db, user.id, input);
  });
  // Redemptions and cancels move money back in: identity is not asked again for them.
  route(app, contract.fundRedeem, ({ input, user, db }) => redeemFund(deps, db, user.id, input));
  route(app, contract.fundCancel, ({ input, user, db }) => cancelFundOrder(deps, db, user.id, input.id));
  route(app, contract.fundOrders, ({ input, user, db }) => fundOrders(deps, db, user.id, input));
  route(app, contract.fundPositions, ({ user, db }) => fundPositions(db, user.id));
}
