import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_ACTIONS,
  CAPABILITIES,
  type Capability,
  KYC_REJECTION_REASONS,
  type OpsName,
  type OpsReq,
  PAYOUT_REJECTION_REASONS,
  ROLES,
  roleCan,
  WORK_TYPES,
} from '#shared/backoffice';
import { RowId } from '#shared/contract/schemas';
import { approveControl, endCustomerSessions, rejectControl, requestControl } from '../account/controls';
import { approveKyc, rejectKyc } from '../account/kyc-review';
import type { Deps } from '../deps';
import { verifyAuditChain } from '../lib/audit-verify';
import { ApiError } from '../lib/errors';
import { fxPreview, fxState, setFxRate } from '../trading/fx-rate';
import { allotmentPreview, ipoRows, proposeAllotment, runAllotment } from '../trading/ipo-allotment';
import { auditLedger, formatAudit } from '../wallet/audit';
import { approveDeposit, confirmDeposit, deposits, rejectDeposit } from '../wallet/deposits';
import { approveLoan, declineLoan, loanRows } from '../wallet/loan-decisions';
import { approvePayout, payouts, payPayout, rejectPayout, releasePayout } from '../wallet/payouts';
import { auditCsv, auditPage } from './audit-view';
import { customerList, searchCustomers } from './customer-search';
import { addNote, customerView } from './customers';
import { payoutsCsv, queuesCsv, statementCsv } from './exports';
import {
  passkeyOptions,
  passkeyRegister,
  passkeyRegisterOptions,
  staffFactors,
  totpBegin,
  totpConfirm,
  verifyFactor,
} from './factors';
import { type OpsHandler, type OpsHandlers, RawAnswer, registerOpsRoutes, who } from './gateway';
import { agentTyping, assignChat, cannedReplies, chatThread, replyAs, waitingChats } from './inbox';
import { kycCase, kycCases, kycPhoto } from './kyc';
import { articleOf, cancelDraft, newsRows, publishDraft } from './news-desk';
import { claim, queues } from './queues';
import { addStaff, changeRole, disableStaff, listStaff, reenrolStaff } from './staff';
import { enrol, freshUntil, logoutStaff, signIn } from './staff-sessions';

/**
 * Every call of the back office's API (src/shared/backoffice.ts `OPS_API`) with its input's schema
 * and its handler; `registerOpsRoutes` (gateway.ts) puts each behind the same checks. The table is
 * complete by type: a call in OPS_API without a handler here does not compile.
 */

const strict = <T extends Record<string, TSchema>>(props: T) =>
  Type.Object(props, { additionalProperties: false });
const Empty = strict({});
const ById = strict({ id: RowId });
/** An admin's reason for deciding an item someone else claimed (approvals/people.ts). */
const Override = Type.Optional(Type.String({ maxLength: 500 }));
const Decide = strict({ id: RowId, override: Override });
const ByUser = strict({ userId: RowId });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Optional = Type.Optional;
const Epoch = Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 });
const Decimal = Type.String({ minLength: 1, maxLength: 16 });
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));
const Proof = Type.Union([
  strict({ code: Type.String({ minLength: 6, maxLength: 12 }) }),
  strict({ passkey: Type.Object({}, { additionalProperties: true }) }),
]);
const AuditFilter = {
  actor: Optional(Text(80)),
  action: Optional(Text(80)),
  customer: Optional(RowId),
  from: Optional(Epoch),
  to: Optional(Epoch),
};
const Draft = strict({
  title: Text(300),
  subhead: Type.String({ maxLength: 600 }),
  html: Text(100_000),
  img: Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  publishAt: Optional(Type.Union([Epoch, Type.Null()])),
});

/** A handler whose input schema is checked against the call's declared request type. */
const h = <N extends OpsName>(
  schema: TSchema & { static: OpsReq<N> },
  run: OpsHandler<N>['run'],
): OpsHandler<N> => ({ schema, run }) as OpsHandler<N>;

/** A CSV download named `<name>-<today>.csv`, never kept by a browser or a proxy. */
const csvAnswer = (deps: Deps, name: string, csv: string) =>
  new RawAnswer(csv, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}-${new Date(deps.clock.now()).toISOString().slice(0, 10)}.csv"`,
    'cache-control': 'no-store',
  });

/** The member's capabilities, for the app's navigation (the server checks each call anyway). */
const capsOf = (role: string) => (Object.keys(CAPABILITIES) as Capability[]).filter((c) => roleCan(role, c));

const HANDLERS: OpsHandlers = {
  login: h<'login'>(strict({ login: Text(64), password: Text(256) }), ({ deps, input, req }) =>
    signIn(deps, staffFactors, input.login, input.password, req.ip),
  ),
  enrol: h<'enrol'>(
    strict({ token: Type.String({ minLength: 20, maxLength: 128 }), password: Text(256) }),
    ({ deps, input, req }) =>
      enrol(deps, staffFactors, input.token, input.password, {
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      }),
  ),
  totpBegin: h<'totpBegin'>(Empty, (ctx) => totpBegin(ctx.deps, who(ctx).member)),
  totpConfirm: h<'totpConfirm'>(
    strict({ code: Type.String({ minLength: 6, maxLength: 12 }) }),
    async (ctx) => {
      const { member, session } = who(ctx);
      const { stage } = await totpConfirm(
        ctx.deps,
        member,
        session,
        (ctx.input as OpsReq<'totpConfirm'>).code,
        ctx.req.ip,
      );
      return { stage };
    },
  ),
  passkeyRegisterOptions: h<'passkeyRegisterOptions'>(Empty, (ctx) =>
    passkeyRegisterOptions(ctx.deps, who(ctx).member),
  ),
  passkeyRegister: h<'passkeyRegister'>(
    strict({ response: Type.Object({}, { additionalProperties: true }) }),
    async (ctx) => {
      const { member, session } = who(ctx);
      const { stage } = await passkeyRegister(ctx.deps, member, session, ctx.input.response, ctx.req.ip);
      return { stage };
    },
  ),
  passkeyOptions: h<'passkeyOptions'>(Empty, (ctx) => passkeyOptions(ctx.deps, who(ctx).member)),
  verify: h<'verify'>(Proof, (ctx) => {
    const { member, session } = who(ctx);
    return verifyFactor(ctx.deps, member, session, ctx.input, ctx.req.ip);
  }),
  logout: h<'logout'>(Empty, async (ctx) => {
    await logoutStaff(ctx.deps, who(ctx).session);
    return null;
  }),
  me: h<'me'>(Empty, async (ctx) => {
    const { member, session } = who(ctx);
    const stage = session.stage as 'enrol' | 'verify' | 'full';
    return {
      id: member.id,
      login: member.login,
      name: member.name,
      role: member.role as (typeof ROLES)[number],
      stage,
      caps: stage === 'full' ? capsOf(member.role) : [],
      freshUntil: freshUntil(ctx.deps, session),
      expiresAt: session.expires_at,
      idleMs: ctx.deps.config.ops.idleMs,
      factors: await staffFactors(ctx.deps, member.id),
    };
  }),

  queues: h<'queues'>(Empty, ({ deps }) => queues(deps)),
  queuesCsv: h<'queuesCsv'>(Empty, async ({ deps }) => csvAnswer(deps, 'queue', await queuesCsv(deps))),
  claim: h<'claim'>(
    strict({ type: literals(WORK_TYPES), id: Text(32), staffId: Optional(Type.Union([RowId, Type.Null()])) }),
    async (ctx) => {
      await claim(ctx.deps, who(ctx).actor, ctx.input);
      return null;
    },
  ),
  customerSearch: h<'customerSearch'>(strict({ q: Type.String({ maxLength: 80 }) }), ({ deps, input }) =>
    searchCustomers(deps, input.q),
  ),
  customerList: h<'customerList'>(
    strict({ kyc: Optional(Type.Integer({ minimum: 0, maximum: 3 })), before: Optional(RowId) }),
    ({ deps, input }) => customerList(deps, input),
  ),
  statementCsv: h<'statementCsv'>(
    strict({ userId: RowId, from: Optional(Epoch), to: Optional(Epoch) }),
    async ({ deps, input }) => csvAnswer(deps, `statement-${input.userId}`, await statementCsv(deps, input)),
  ),
  customer: h<'customer'>(ById, ({ deps, input }) => customerView(deps, input.id)),
  noteAdd: h<'noteAdd'>(strict({ userId: RowId, body: Text(2000) }), async (ctx) => {
    await addNote(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.body);
    return null;
  }),
  accountRequest: h<'accountRequest'>(
    strict({ userId: RowId, action: literals(ACCOUNT_ACTIONS), reason: Text(500) }),
    (ctx) => requestControl(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.action, ctx.input.reason),
  ),
  accountApprove: h<'accountApprove'>(strict({ userId: RowId, override: Override }), (ctx) =>
    approveControl(ctx.deps, who(ctx).actor, ctx.input.userId, { override: ctx.input.override }),
  ),
  accountReject: h<'accountReject'>(
    strict({ userId: RowId, reason: Text(500), override: Override }),
    async (ctx) => {
      await rejectControl(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.reason, {
        override: ctx.input.override,
      });
      return null;
    },
  ),
  sessionsEnd: h<'sessionsEnd'>(strict({ userId: RowId, reason: Text(500) }), (ctx) =>
    endCustomerSessions(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.reason),
  ),

  kycList: h<'kycList'>(Empty, ({ deps }) => kycCases(deps)),
  kycCase: h<'kycCase'>(ByUser, ({ deps, input }) => kycCase(deps, input.userId)),
  kycPhoto: h<'kycPhoto'>(
    strict({ userId: RowId, side: literals(['front', 'back']) }),
    async ({ deps, input }) => {
      const photo = await kycPhoto(deps, input.userId, input.side);
      return new RawAnswer(photo.bytes, {
        'content-type': photo.mime,
        // An identity document is never kept by a browser or a proxy, and never runs as a page.
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': 'inline',
        'x-content-type-options': 'nosniff',
      });
    },
  ),
  kycApprove: h<'kycApprove'>(strict({ userId: RowId, override: Override }), async (ctx) => {
    await approveKyc(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input);
    return null;
  }),
  kycReject: h<'kycReject'>(
    strict({
      userId: RowId,
      reason: literals(KYC_REJECTION_REASONS),
      text: Optional(Type.String({ maxLength: 500 })),
      override: Override,
    }),
    async (ctx) => {
      const { userId, reason, text } = ctx.input;
      await rejectKyc(ctx.deps, who(ctx).actor, userId, reason, text, ctx.input);
      return null;
    },
  ),

  payouts: h<'payouts'>(Empty, ({ deps }) => payouts(deps)),
  payoutsCsv: h<'payoutsCsv'>(Empty, async ({ deps }) => csvAnswer(deps, 'payouts', await payoutsCsv(deps))),
  payoutPay: h<'payoutPay'>(Decide, (ctx) => payPayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input)),
  payoutReject: h<'payoutReject'>(
    strict({
      id: RowId,
      reason: literals(PAYOUT_REJECTION_REASONS),
      text: Optional(Type.String({ maxLength: 500 })),
      override: Override,
    }),
    async (ctx) => {
      const { id, reason, text } = ctx.input;
      await rejectPayout(ctx.deps, who(ctx).actor, id, reason, text, ctx.input);
      return null;
    },
  ),
  payoutRelease: h<'payoutRelease'>(Decide, async (ctx) => {
    await releasePayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input);
    return null;
  }),
  payoutApprove: h<'payoutApprove'>(Decide, (ctx) =>
    approvePayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  ),

  deposits: h<'deposits'>(Empty, ({ deps }) => deposits(deps)),
  depositConfirm: h<'depositConfirm'>(Decide, (ctx) =>
    confirmDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  ),
  depositReject: h<'depositReject'>(
    strict({ id: RowId, text: Text(500), override: Override }),
    async (ctx) => {
      await rejectDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.text, ctx.input);
      return null;
    },
  ),
  depositApprove: h<'depositApprove'>(Decide, (ctx) =>
    approveDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  ),

  loans: h<'loans'>(Empty, ({ deps }) => loanRows(deps)),
  loanApprove: h<'loanApprove'>(Decide, (ctx) =>
    approveLoan(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  ),
  loanReject: h<'loanReject'>(strict({ id: RowId, text: Text(500), override: Override }), async (ctx) => {
    await declineLoan(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.text, ctx.input);
    return null;
  }),

  ipos: h<'ipos'>(Empty, ({ deps }) => ipoRows(deps)),
  ipoPreview: h<'ipoPreview'>(strict({ id: RowId, ratio: Decimal }), ({ deps, input }) =>
    allotmentPreview(deps, input.id, input.ratio),
  ),
  ipoPropose: h<'ipoPropose'>(strict({ id: RowId, ratio: Decimal }), (ctx) =>
    proposeAllotment(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.ratio),
  ),
  ipoRun: h<'ipoRun'>(strict({ id: RowId, proposal: RowId, override: Override }), (ctx) =>
    runAllotment(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.proposal, ctx.input),
  ),

  fx: h<'fx'>(Empty, ({ deps }) => fxState(deps)),
  fxPreview: h<'fxPreview'>(strict({ rate: Decimal }), ({ deps, input }) => fxPreview(deps, input.rate)),
  fxSet: h<'fxSet'>(strict({ rate: Decimal }), (ctx) => setFxRate(ctx.deps, who(ctx).actor, ctx.input.rate)),

  news: h<'news'>(Empty, ({ deps }) => newsRows(deps)),
  newsPreview: h<'newsPreview'>(Draft, async ({ input }) => {
    const a = articleOf(input);
    return { title: a.title, subhead: a.subhead, html: a.html };
  }),
  newsPublish: h<'newsPublish'>(Draft, (ctx) => publishDraft(ctx.deps, who(ctx).actor, ctx.input)),
  newsCancel: h<'newsCancel'>(ById, async (ctx) => {
    await cancelDraft(ctx.deps, who(ctx).actor, ctx.input.id);
    return null;
  }),

  chats: h<'chats'>(strict({ box: literals(['mine', 'unassigned', 'all']) }), (ctx) =>
    waitingChats(ctx.deps.database.db, ctx.input.box, who(ctx).member.id),
  ),
  chat: h<'chat'>(
    strict({ userId: RowId, after: Optional(Type.Integer({ minimum: 0 })) }),
    ({ deps, input }) => chatThread(deps, input.userId),
  ),
  chatReply: h<'chatReply'>(strict({ userId: RowId, body: Text(2000) }), (ctx) =>
    replyAs(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.body),
  ),
  chatAssign: h<'chatAssign'>(
    strict({ userId: RowId, staffId: Type.Union([RowId, Type.Null()]) }),
    async (ctx) => {
      const { actor } = who(ctx);
      // Taking a chat or letting it go is anyone's; giving it to someone else is an admin's.
      if (ctx.input.staffId !== null && ctx.input.staffId !== actor.staffId && actor.role !== 'admin')
        throw new ApiError('ops.errors.forbidden', 403);
      await assignChat(ctx.deps, actor, ctx.input.userId, ctx.input.staffId);
      return null;
    },
  ),
  chatTyping: h<'chatTyping'>(ByUser, async ({ deps, input }) => {
    await agentTyping(deps, input.userId);
    return null;
  }),
  canned: h<'canned'>(Empty, ({ deps }) => cannedReplies(deps)),

  audit: h<'audit'>(strict({ ...AuditFilter, before: Optional(RowId) }), ({ deps, input }) =>
    auditPage(deps.database.db, input),
  ),
  auditCsv: h<'auditCsv'>(strict(AuditFilter), async ({ deps, input }) =>
    csvAnswer(deps, 'audit', await auditCsv(deps.database.db, input)),
  ),
  auditVerify: h<'auditVerify'>(Empty, async ({ deps }) => {
    const r = await verifyAuditChain(deps.database);
    return {
      entries: r.entries,
      ok: r.ok,
      brokenAt: r.brokenAt,
      problem: r.problem,
      problems: r.problems,
      signedHead: r.signedHead,
      unsealed: r.unsealed,
    };
  }),
  ledgerAudit: h<'ledgerAudit'>(Empty, async (ctx) => {
    const report = await auditLedger(ctx.deps.database.db);
    return { ok: report.problems.length === 0, text: formatAudit(report), problems: report.problems.length };
  }),

  staff: h<'staff'>(Empty, ({ deps }) => listStaff(deps)),
  // The link goes to the member's own contact: an admin's answer never carries it.
  staffAdd: h<'staffAdd'>(
    strict({ login: Text(32), name: Text(80), role: literals(ROLES), contact: Text(254) }),
    async (ctx) => {
      const { staff, sentTo } = await addStaff(ctx.deps, who(ctx).actor, ctx.input);
      return { staff, sentTo: sentTo ?? '' };
    },
  ),
  staffReenrol: h<'staffReenrol'>(ById, async (ctx) => {
    const { staff, sentTo } = await reenrolStaff(ctx.deps, who(ctx).actor, ctx.input.id);
    return { staff, sentTo: sentTo ?? '' };
  }),
  staffRole: h<'staffRole'>(strict({ id: RowId, role: literals(ROLES) }), (ctx) =>
    changeRole(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.role),
  ),
  staffDisable: h<'staffDisable'>(ById, (ctx) => disableStaff(ctx.deps, who(ctx).actor, ctx.input.id)),
};

/** The back office's API under `<API_BASE>/ops` (server/app.ts registers it beside the customer API). */
export async function opsRoutes(app: FastifyInstance): Promise<void> {
  registerOpsRoutes(app, HANDLERS);
}
