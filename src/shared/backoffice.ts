/**
 * The back office's API, written once for the server (server/backoffice) and the back office's
 * app (src/backoffice): every call's method, path under `<API_BASE>/ops`, the capability it needs,
 * whether it needs a fresh second factor, its request's schema (TypeBox: the server validates with
 * it, and the request's type is the schema's) and its answer's type. Each area's calls and types
 * are in backoffice/ (README.md there lists them), joined here, so `#shared/backoffice` stays
 * the one import. The customer app never imports this file (the build checks that nothing of the
 * back office is in its bundle). The back office's app imports it at run time for method and path,
 * schemas included: TypeBox is in the back office's bundle, not the customer app's
 * (src/backoffice/README.md says why).
 */

import { auditOps } from './backoffice/audit';
import { contentOps } from './backoffice/content';
import { customerOps } from './backoffice/customers';
import { marketOps } from './backoffice/market';
import { moneyOps } from './backoffice/money';
import { queueOps } from './backoffice/queues';
import { signInOps, staffOps } from './backoffice/staff';
import { joinDomains, type ReqOf, type ResOf } from './contract/define';

export * from './backoffice/audit';
export * from './backoffice/content';
export * from './backoffice/customers';
export type { FactorProof, OpsEndpoint } from './backoffice/define';
export * from './backoffice/market';
export * from './backoffice/messages';
export * from './backoffice/money';
export * from './backoffice/queues';
export * from './backoffice/roles';
export * from './backoffice/staff';
export * from './backoffice/views';

/** Every call of the back office's API, by name; a name or a route defined twice throws here. */
export const OPS_API = joinDomains(
  {
    signIn: signInOps,
    queues: queueOps,
    customers: customerOps,
    money: moneyOps,
    market: marketOps,
    content: contentOps,
    audit: auditOps,
    staff: staffOps,
  },
  'OPS_API',
);

export type OpsApi = typeof OPS_API;
export type OpsName = keyof OpsApi;
export type OpsReq<N extends OpsName> = ReqOf<OpsApi[N]>;
export type OpsRes<N extends OpsName> = ResOf<OpsApi[N]>;

/** The API's base under the customer API's (`/api` → `/api/ops`). */
export const OPS_PREFIX = '/ops';

/** Where the back office's pages are served. */
export const OPS_PAGES = '/ops/';
