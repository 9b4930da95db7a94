import type { FastifyInstance } from 'fastify';
import { CONFIG_TAGS } from '#shared/contract/config';
import { contract } from '#shared/contract/index';
import { CLOCK_OFFSET_TAG } from '../lib/clock';
import { route } from '../lib/route';

export async function configRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  route(app, contract.config, async ({ db }) => {
    const rows = await db
      .selectFrom('config')
      .select(['tag', 'value'])
      .where('tag', '!=', CLOCK_OFFSET_TAG)
      .orderBy('tag')
      .execute();
    return [
      ...rows,
      { tag: CONFIG_TAGS.simulated, value: deps.market.simulated ? '1' : '0' },
      // The ticket says a limit is out of the band before it is sent; the server still refuses it.
      { tag: CONFIG_TAGS.limitBand, value: String(deps.config.orders.limitBandBps) },
    ];
  });
}
