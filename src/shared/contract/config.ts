import * as Type from '@sinclair/typebox';
import { endpoint } from './define';

export { CONFIG_TAGS } from '../config-tags';

/** `/v2/config` answers tag/value rows (SPEC §3 "Config entry"); values are strings. */
export interface ConfigRow {
  tag: string;
  value: string;
}

export const configContract = {
  config: endpoint<ConfigRow[]>()({
    method: 'GET',
    path: '/v2/config',
    auth: false,
    shared: true,
    req: Type.Object({}),
  }),
};
