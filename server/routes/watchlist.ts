import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { route } from '../lib/route';
import {
  createAlert,
  deleteAlert,
  listAlerts,
  markRead,
  notifications,
  unreadCount,
  updateAlert,
} from '../watchlists/alerts';
import {
  addItem,
  canonicalSymbol,
  createList,
  deleteList,
  listedSymbol,
  lists,
  membership,
  ownItems,
  removeItem,
  renameList,
  reorderLists,
  spellings,
} from '../watchlists/lists';
import { ANSWERS } from './answers';

/** Watchlists, price alerts and the inbox (src/shared/contract/watchlist.ts, server/watchlists/). */
export async function watchlistRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  route(app, contract.watchlistLists, async ({ user }) => ({ rows: await lists(deps, user.id) }));
  route(app, contract.watchlistCreate, ({ user, input }) => createList(deps, user.id, input.name));
  route(app, contract.watchlistRename, ({ user, input }) => renameList(deps, user.id, input.id, input.name));
  route(app, contract.watchlistReorder, async ({ user, input }) => ({
    rows: await reorderLists(deps, user.id, input.ids),
  }));
  route(app, contract.watchlistDelete, async ({ user, input }) => {
    await deleteList(deps, user.id, input.id);
    return null;
  });
  route(app, contract.watchlistItems, ({ user, input }) =>
    ownItems(deps, user.id, input.id, input.page ?? 1, input.limit ?? 10),
  );
  route(app, contract.watchlistAdd, async ({ user, input }) => {
    await addItem(deps, user.id, input.id, listedSymbol(deps, input.symbol));
    return null;
  });
  route(app, contract.watchlistRemove, async ({ user, input }) => {
    await removeItem(deps, user.id, input.id, spellings(deps, input.symbol));
    return null;
  });
  route(app, contract.watchlistMembership, async ({ user, input }) => ({
    ids: await membership(deps, user.id, canonicalSymbol(deps, input.symbol)),
  }));

  route(app, contract.alertList, ({ user, input }) => listAlerts(deps, user.id, input.symbol));
  route(app, contract.alertCreate, ({ user, input }) => createAlert(deps, user.id, input));
  route(app, contract.alertUpdate, ({ user, input }) => updateAlert(deps, user.id, input));
  route(app, contract.alertDelete, async ({ user, input }) => {
    await deleteAlert(deps, user.id, input.id);
    return null;
  });

  route(app, contract.notificationList, ({ user, input }) =>
    notifications(deps, user.id, input.page ?? 1, input.limit ?? 10),
  );
  route(app, contract.notificationUnread, ({ user }) => unreadCount(deps, user.id), {
    answer: ANSWERS.notificationUnread,
  });
  route(app, contract.notificationRead, async ({ user, input }) => {
    await markRead(deps, user.id, input.id);
    return null;
  });
}
