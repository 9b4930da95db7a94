import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { requireTradePassword } from '../account/fund-password';
import { requireVerified } from '../account/kyc-gate';
import { authenticate } from '../lib/auth';
import { route } from '../lib/route';
import { holdingsPage } from '../portfolio/valuation';
import { dayPositions } from '../trading/day-positions';
import { cancelOrder, dealBuy, dealSell, quoteOrder } from '../trading/deals';
import { modifyPending } from '../trading/modify';
import { toOrderRow } from '../trading/order-rows';
import { contractNote, dealList, orderList } from '../trading/records';
import {
  addFavourite,
  deleteFavourite,
  favourites,
  isFavourite,
  removeFavourite,
} from '../watchlists/favourites';

/**
 * Favourites, holdings and orders (src/shared/contract/trading.ts): orders go to server/trading/,
 * favourites to server/watchlists/, holdings to server/portfolio/.
 */
export async function tradingRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  /**
   * Block/QIP buys need the transaction password. It is checked here, before the route opens its
   * transaction, so a wrong code is counted towards the lockout even though the buy is refused.
   */
  const dealBuyUrl = deps.config.apiBase + contract.dealBuy.path;
  app.addHook('preHandler', async (req) => {
    if (req.routeOptions.url !== dealBuyUrl) return;
    const body = req.body as { mold: string; stock_password?: string };
    if (body.mold === 'stock') return;
    const user = await authenticate(deps, req);
    await requireTradePassword(deps, user.id, body.stock_password);
  });

  // SPEC's favourites are the default watchlist (server/watchlists/favourites.ts).
  route(app, contract.favouriteAdd, ({ input, user }) => addFavourite(deps, user.id, input.symbol));
  route(app, contract.favouriteRemove, ({ input, user }) => removeFavourite(deps, user.id, input.symbol));
  route(app, contract.favouriteDelete, ({ input, user }) => deleteFavourite(deps, user.id, input.code));
  route(app, contract.favouriteCheck, ({ input, user }) => isFavourite(deps, user.id, input.symbol));
  route(app, contract.favouriteList, ({ input, user }) =>
    favourites(deps, user.id, input.page ?? 1, input.pageSize ?? 10),
  );

  route(app, contract.holdings, ({ db, input, user }) => holdingsPage(deps, db, user.id, input));
  route(app, contract.positions, ({ db, user }) => dayPositions(deps, db, user.id));

  // REQUIRE_KYC: buys need a verified account; sells never wait for it (account/kyc-gate.ts).
  route(app, contract.dealBuy, async ({ input, user, db }) => {
    await requireVerified(deps, db, user.id);
    return dealBuy(deps, db, user.id, input);
  });
  route(app, contract.dealSell, ({ input, user, db }) => dealSell(deps, db, user.id, input));
  route(app, contract.dealList, ({ input, user, db }) => dealList(deps, db, user.id, input));
  route(app, contract.orderList, ({ input, user, db }) => orderList(deps, db, user.id, input));
  // The review sheet's figures, from the same functions the fill uses (never computed in the app).
  route(app, contract.orderQuote, ({ input, user, db }) => quoteOrder(deps, db, user.id, input));
  route(app, contract.orderContract, ({ input, user, db }) => contractNote(deps, db, user.id, input.no));
  route(app, contract.orderModify, async ({ input, user, db }) => {
    const { no, ...changes } = input;
    return toOrderRow(await modifyPending(deps, db, user.id, no, changes), deps.clock.now());
  });
  route(app, contract.orderCancel, ({ input, user, db }) => cancelOrder(deps, db, user.id, input.no));
}
