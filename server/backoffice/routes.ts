import type { FastifyInstance } from 'fastify';
import { CAPABILITIES, type Capability, type ROLES, roleCan } from '#shared/backoffice';
import { approveControl, endCustomerSessions, rejectControl, requestControl } from '../account/controls';
import { approveKyc, rejectKyc } from '../account/kyc-review';
import { agentTyping, assignChat, cannedReplies, chatThread, replyAs, waitingChats } from '../content/inbox';
import { articleOf, cancelDraft, newsRows, publishDraft } from '../content/news-desk';
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
import { type OpsHandlers, RawAnswer, registerOpsRoutes, who } from './gateway';
import { kycCase, kycCases, kycPhoto } from './kyc';
import { claim, queues } from './queues';
import { addStaff, changeRole, disableStaff, listStaff, reenrolStaff } from './staff';
import { enrol, freshUntil, logoutStaff, signIn } from './staff-sessions';

/**
 * The handler of every call of the back office's API (src/shared/backoffice.ts `OPS_API` declares
 * each call, its input's schema included); `registerOpsRoutes` (gateway.ts) validates the input by
 * that schema and puts each behind the same checks. The table is complete by type: a call in
 * OPS_API without a handler here does not compile.
 */

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
  login: ({ deps, input, req }) => signIn(deps, staffFactors, input.login, input.password, req.ip),
  enrol: ({ deps, input, req }) =>
    enrol(deps, staffFactors, input.token, input.password, {
      ip: req.ip,
      userAgent: req.headers['user-agent'],
    }),
  totpBegin: (ctx) => totpBegin(ctx.deps, who(ctx).member),
  totpConfirm: async (ctx) => {
    const { member, session } = who(ctx);
    const { stage } = await totpConfirm(ctx.deps, member, session, ctx.input.code, ctx.req.ip);
    return { stage };
  },
  passkeyRegisterOptions: (ctx) => passkeyRegisterOptions(ctx.deps, who(ctx).member),
  passkeyRegister: async (ctx) => {
    const { member, session } = who(ctx);
    const { stage } = await passkeyRegister(ctx.deps, member, session, ctx.input.response, ctx.req.ip);
    return { stage };
  },
  passkeyOptions: (ctx) => passkeyOptions(ctx.deps, who(ctx).member),
  verify: (ctx) => {
    const { member, session } = who(ctx);
    return verifyFactor(ctx.deps, member, session, ctx.input, ctx.req.ip);
  },
  logout: async (ctx) => {
    await logoutStaff(ctx.deps, who(ctx).session);
    return null;
  },
  me: async (ctx) => {
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
  },

  queues: ({ deps }) => queues(deps),
  queuesCsv: async ({ deps }) => csvAnswer(deps, 'queue', await queuesCsv(deps)),
  claim: async (ctx) => {
    await claim(ctx.deps, who(ctx).actor, ctx.input);
    return null;
  },
  customerSearch: ({ deps, input }) => searchCustomers(deps, input.q),
  customerList: ({ deps, input }) => customerList(deps, input),
  statementCsv: async ({ deps, input }) =>
    csvAnswer(deps, `statement-${input.userId}`, await statementCsv(deps, input)),
  customer: ({ deps, input }) => customerView(deps, input.id),
  noteAdd: async (ctx) => {
    await addNote(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.body);
    return null;
  },
  accountRequest: (ctx) =>
    requestControl(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.action, ctx.input.reason),
  accountApprove: (ctx) =>
    approveControl(ctx.deps, who(ctx).actor, ctx.input.userId, { override: ctx.input.override }),
  accountReject: async (ctx) => {
    await rejectControl(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.reason, {
      override: ctx.input.override,
    });
    return null;
  },
  sessionsEnd: (ctx) => endCustomerSessions(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.reason),

  kycList: ({ deps }) => kycCases(deps),
  kycCase: ({ deps, input }) => kycCase(deps, input.userId),
  kycPhoto: async ({ deps, input }) => {
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
  kycApprove: async (ctx) => {
    await approveKyc(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input);
    return null;
  },
  kycReject: async (ctx) => {
    const { userId, reason, text } = ctx.input;
    await rejectKyc(ctx.deps, who(ctx).actor, userId, reason, text, ctx.input);
    return null;
  },

  payouts: ({ deps }) => payouts(deps),
  payoutsCsv: async ({ deps }) => csvAnswer(deps, 'payouts', await payoutsCsv(deps)),
  payoutPay: (ctx) => payPayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  payoutReject: async (ctx) => {
    const { id, reason, text } = ctx.input;
    await rejectPayout(ctx.deps, who(ctx).actor, id, reason, text, ctx.input);
    return null;
  },
  payoutRelease: async (ctx) => {
    await releasePayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input);
    return null;
  },
  payoutApprove: (ctx) => approvePayout(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),

  deposits: ({ deps }) => deposits(deps),
  depositConfirm: (ctx) => confirmDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  depositReject: async (ctx) => {
    await rejectDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.text, ctx.input);
    return null;
  },
  depositApprove: (ctx) => approveDeposit(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),

  loans: ({ deps }) => loanRows(deps),
  loanApprove: (ctx) => approveLoan(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input),
  loanReject: async (ctx) => {
    await declineLoan(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.text, ctx.input);
    return null;
  },

  ipos: ({ deps }) => ipoRows(deps),
  ipoPreview: ({ deps, input }) => allotmentPreview(deps, input.id, input.ratio),
  ipoPropose: (ctx) => proposeAllotment(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.ratio),
  ipoRun: (ctx) => runAllotment(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.proposal, ctx.input),

  fx: ({ deps }) => fxState(deps),
  fxPreview: ({ deps, input }) => fxPreview(deps, input.rate),
  fxSet: (ctx) => setFxRate(ctx.deps, who(ctx).actor, ctx.input.rate),

  news: ({ deps }) => newsRows(deps),
  newsPreview: async ({ input }) => {
    const a = articleOf(input);
    return { title: a.title, subhead: a.subhead, html: a.html };
  },
  newsPublish: (ctx) => publishDraft(ctx.deps, who(ctx).actor, ctx.input),
  newsCancel: async (ctx) => {
    await cancelDraft(ctx.deps, who(ctx).actor, ctx.input.id);
    return null;
  },

  chats: (ctx) => waitingChats(ctx.deps.database.db, ctx.input.box, who(ctx).member.id),
  chat: ({ deps, input }) => chatThread(deps, input.userId),
  chatReply: (ctx) => replyAs(ctx.deps, who(ctx).actor, ctx.input.userId, ctx.input.body),
  chatAssign: async (ctx) => {
    const { actor } = who(ctx);
    // Taking a chat or letting it go is anyone's; giving it to someone else is an admin's.
    if (ctx.input.staffId !== null && ctx.input.staffId !== actor.staffId && actor.role !== 'admin')
      throw new ApiError('ops.errors.forbidden', 403);
    await assignChat(ctx.deps, actor, ctx.input.userId, ctx.input.staffId);
    return null;
  },
  chatTyping: async ({ deps, input }) => {
    await agentTyping(deps, input.userId);
    return null;
  },
  canned: ({ deps }) => cannedReplies(deps),

  audit: ({ deps, input }) => auditPage(deps.database.db, input),
  auditCsv: async ({ deps, input }) => csvAnswer(deps, 'audit', await auditCsv(deps.database.db, input)),
  auditVerify: async ({ deps }) => {
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
  },
  ledgerAudit: async (ctx) => {
    const report = await auditLedger(ctx.deps.database.db);
    return { ok: report.problems.length === 0, text: formatAudit(report), problems: report.problems.length };
  },

  staff: ({ deps }) => listStaff(deps),
  // The link goes to the member's own contact: an admin's answer never carries it.
  staffAdd: async (ctx) => {
    const { staff, sentTo } = await addStaff(ctx.deps, who(ctx).actor, ctx.input);
    return { staff, sentTo: sentTo ?? '' };
  },
  staffReenrol: async (ctx) => {
    const { staff, sentTo } = await reenrolStaff(ctx.deps, who(ctx).actor, ctx.input.id);
    return { staff, sentTo: sentTo ?? '' };
  },
  staffRole: (ctx) => changeRole(ctx.deps, who(ctx).actor, ctx.input.id, ctx.input.role),
  staffDisable: (ctx) => disableStaff(ctx.deps, who(ctx).actor, ctx.input.id),
};

/** The back office's API under `<API_BASE>/ops` (server/app.ts registers it beside the customer API). */
export async function opsRoutes(app: FastifyInstance): Promise<void> {
  registerOpsRoutes(app, HANDLERS);
}
