import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  OPS_API,
  OPS_PREFIX,
  type OpsEndpoint,
  type OpsName,
  type OpsReq,
  type OpsRes,
  roleCan,
  type Stage,
} from '#shared/backoffice';
import type { Deps } from '../deps';
import { type Actor, auditRefusal } from '../lib/audit-log';
import { ApiError } from '../lib/errors';
import { privateAnswer } from '../lib/private-answers';
import { type StaffMember, type StaffSession, staffActor } from './staff';
import { authenticateStaff, freshUntil } from './staff-sessions';

/**
 * The back office's one gateway: every call of `OPS_API` is registered here, and
 * each request passes the same checks in the same order before its handler runs —
 * 1. a staff session (`Authorization: Bearer`; a customer's token is no staff token): else 401;
 * 2. a stage the call accepts (only sign-in steps take a session without its second factor): 403;
 * 3. the member's role has the call's capability: 403 `ops.errors.forbidden`;
 * 4. calls that move money, approve, set the rate or change roles need a second factor given
 *    within OPS_STEP_UP_MS: 403 `ops.errors.stepUp` (the app asks for one and tries again).
 * Answers are private (no-store). Handlers get the member as an audit `Actor`. A member refused —
 * by these checks or by the decision itself (their own payout, a claim that is not theirs) — is
 * written to the audit log (`denied:<call>`): an insider probing what they may do leaves a trace.
 */

export interface OpsContext<N extends OpsName> {
  input: OpsReq<N>;
  deps: Deps;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Null only on `public` calls. */
  member: StaffMember | null;
  session: StaffSession | null;
}

/** A signed-in member's context (every call but `public` ones). */
export function who<N extends OpsName>(
  ctx: OpsContext<N>,
): { member: StaffMember; session: StaffSession; actor: Actor } {
  if (!ctx.member || !ctx.session) throw new ApiError('errors.sessionExpired', 401);
  return { member: ctx.member, session: ctx.session, actor: staffActor(ctx.member, ctx.req.id) };
}

/** Bytes answered as they are (a photo, a CSV), with their own headers. */
export class RawAnswer {
  constructor(
    readonly body: Buffer | string,
    readonly headers: Record<string, string>,
  ) {}
}

/** A call's handler: its input is already valid by the call's schema in OPS_API. */
export type OpsHandler<N extends OpsName> = (ctx: OpsContext<N>) => Promise<OpsRes<N> | RawAnswer>;

/** A handler for every call of OPS_API (complete by type). */
export type OpsHandlers = { [N in OpsName]: OpsHandler<N> };

/** Why a call is refused to this member and session, or null. The table-driven test reads it too. */
export function refusal(
  deps: Deps,
  name: OpsName,
  member: StaffMember,
  session: StaffSession,
): ApiError | null {
  const def: OpsEndpoint = OPS_API[name];
  const stages = def.stages ?? ['full'];
  if (!stages.includes(session.stage as Stage)) return new ApiError('ops.errors.factorNeeded', 403);
  if (def.cap !== 'session' && def.cap !== 'public' && !roleCan(member.role, def.cap))
    return new ApiError('ops.errors.forbidden', 403);
  if (def.stepUp && freshUntil(deps, session) === 0) return new ApiError('ops.errors.stepUp', 403);
  return null;
}

/** The fields of a refused call's input kept in its audit entry: which item it aimed at, never text. */
const AIMED_AT = ['id', 'userId', 'type', 'staffId', 'role', 'proposal'] as const;

function aimedAt(input: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (typeof input !== 'object' || input === null) return out;
  for (const k of AIMED_AT) {
    const v = (input as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    else if (typeof v === 'string') out[k] = v.slice(0, 40);
  }
  return out;
}

/** A member's refused call, audited (the refusal itself is answered as it was). */
function auditDenied(deps: Deps, req: FastifyRequest, name: OpsName, member: StaffMember, refused: ApiError) {
  return auditRefusal(deps.database, staffActor(member, req.id), deps.clock.now, {
    action: `denied:${name}`,
    reason: refused.key,
    after: { status: refused.status, ...aimedAt(OPS_API[name].method === 'GET' ? req.query : req.body) },
  });
}

/**
 * The server's clock on every answer (`x-server-now`, epoch ms): the pages measure ages against it,
 * not against the desk's own clock, which may be minutes (or, under a moved demo clock, days) off.
 */
const serverTime =
  (deps: Deps) =>
  (_req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    reply.header('x-server-now', String(deps.clock.now()));
    done();
  };

/** The member and session a request was let in with (set before its input is even validated). */
const callers = new WeakMap<FastifyRequest, { member: StaffMember; session: StaffSession }>();

export function registerOpsRoutes(app: FastifyInstance, handlers: OpsHandlers): void {
  const deps = app.deps;
  const base = `${deps.config.apiBase}${OPS_PREFIX}`;
  const stamp = serverTime(deps);
  for (const name of Object.keys(OPS_API) as OpsName[]) {
    const def: OpsEndpoint = OPS_API[name];
    const handler = handlers[name] as OpsHandler<OpsName>;
    app.route({
      method: def.method,
      url: base + def.path,
      // The query (GET) or body (POST), validated as the customer API's are (lib/validation.ts).
      schema: def.method === 'GET' ? { querystring: def.req } : { body: def.req },
      onRequest: [privateAnswer, stamp],
      // Who may call is settled before the input is read: a stranger learns nothing of a call's
      // schema, and the same refusal comes whatever the body.
      preValidation: async (req) => {
        if (def.cap === 'public') return;
        const caller = await authenticateStaff(deps, req);
        const refused = refusal(deps, name, caller.member, caller.session);
        if (refused) {
          await auditDenied(deps, req, name, caller.member, refused);
          throw refused;
        }
        callers.set(req, caller);
      },
      handler: async (req, reply) => {
        const caller = callers.get(req);
        const member = caller?.member ?? null;
        const session = caller?.session ?? null;
        const input = ((def.method === 'GET' ? req.query : req.body) ?? {}) as OpsReq<OpsName>;
        let data: Awaited<ReturnType<typeof handler>>;
        try {
          data = await handler({ input, deps, req, reply, member, session });
        } catch (err) {
          if (member && err instanceof ApiError && err.status === 403)
            await auditDenied(deps, req, name, member, err);
          throw err;
        }
        if (data instanceof RawAnswer) {
          for (const [k, v] of Object.entries(data.headers)) reply.header(k, v);
          return reply.send(data.body);
        }
        return { msg: 'ok', data: data ?? null };
      },
    });
  }
}
