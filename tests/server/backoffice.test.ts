import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, type Capability, OPS_API, type OpsName, ROLES, type Role } from '#shared/backoffice';
import { KYC_STATUS, WITHDRAW_STATUS } from '#shared/status';
import { consoleActor } from '../../server/lib/audit-log';
import { verifyAuditChain } from '../../server/lib/audit-verify';
import { COMMANDS } from '../../server/ops/commands/index';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  enrolledMember,
  type Member,
  opsCall,
  outboxToken,
  STAFF_PASSWORD,
  signInAgain,
  stepUp,
} from '../support/staff';
import { credit, expectLedgerConsistent, idem } from '../support/trading';
import { addCard, ensureTradeCode, PNG, TRADE_CODE, upload } from '../support/wallet';

/**
 * The back office's API on both databases. Every call refuses a customer's token, a
 * member without the call's role and a session without a fresh second factor where one is needed
 * (table-driven over OPS_API); staff tokens open nothing of the customer API; maker-checker payouts
 * pay once however approvals race and never on the maker's own approval, and a changed card voids
 * an approval; real-name rejection with a reason reaches the customer; the chat's read marks and
 * typing go both ways; the audit log refuses UPDATE and DELETE, is hash-chained and exports safe
 * CSV; ledger postings of staff actions point at their entry. The ledger audit runs after.
 */

const THRESHOLD_UNITS = 200_000;

describe.each(DIALECTS)('back office on $name', ({ name, enabled }) => {
  let s: TestServer;
  const team = {} as Record<Role, Member>;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
    for (const role of ROLES) team[role] = await enrolledMember(s, role);
  });
  afterAll(async () => {
    if (s) {
      await expectLedgerConsistent(s);
      expect((await verifyAuditChain(s.deps.database)).problems).toEqual([]);
    }
    await s?.close();
  });

  /** A customer with money, a day-old card and a transaction password. */
  async function customer(units = 1_000_000) {
    const u = await s.signUp();
    await credit(s, u.id, units * 100);
    const card = await addCard(s, u.token);
    return { ...u, card };
  }
  async function withdraw(token: string, card: number, count: number) {
    await ensureTradeCode(s, token);
    const r = await s.call('withdraw', {
      token,
      body: { bank_id: card, count, stock_password: TRADE_CODE },
      headers: idem(),
    });
    expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    return r.body.data.id as number;
  }
  const status = async (id: number) =>
    await s.deps.database.db
      .selectFrom('withdrawals')
      .select(['status', 'hold'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it.runIf(enabled)(
    'every call refuses a customer token, a member without its role, and a session without its factor',
    async () => {
      const u = await s.signUp();
      // A session that gave only its password: a sign-in's first step.
      const step = await opsCall(s, 'login', null, { login: team.support.login, password: STAFF_PASSWORD });
      expect(step.body.data.stage).toBe('verify');
      for (const name of Object.keys(OPS_API) as OpsName[]) {
        const def = OPS_API[name] as {
          cap: Capability | 'public' | 'session';
          stages?: readonly string[];
          stepUp?: boolean;
        };
        if (def.cap === 'public') continue;
        // A customer's token, as the bearer and as the customer API's header.
        for (const headers of [{ authorization: `Bearer ${u.token}` }, { token: u.token }] as Record<
          string,
          string
        >[]) {
          const r = await opsCall(s, name, null, {}, headers);
          expect(r.status, `${name} with a customer token`).toBe(401);
          expect(r.headers['cache-control']).toBe('no-store');
        }
        if (!(def.stages ?? ['full']).includes('verify')) {
          const r = await opsCall(s, name, step.body.data.token);
          expect([r.status, r.body.data], `${name} before the second factor`).toEqual([
            403,
            'ops.errors.factorNeeded',
          ]);
        }
        if (def.cap !== 'session') {
          const allowed = CAPABILITIES[def.cap] as readonly Role[];
          for (const role of ROLES.filter((r) => !allowed.includes(r))) {
            const r = await opsCall(s, name, team[role].token);
            expect([r.status, r.body.data], `${name} as ${role}`).toEqual([403, 'ops.errors.forbidden']);
          }
        }
      }
      // Past the step-up window (the sessions stay open: each call above kept them in use).
      s.clock.advance(s.config.ops.stepUpMs + 1);
      for (const name of Object.keys(OPS_API) as OpsName[]) {
        const def = OPS_API[name] as { cap: Capability | 'public' | 'session'; stepUp?: boolean };
        if (def.cap === 'public' || def.cap === 'session') continue;
        const holder = team[(CAPABILITIES[def.cap] as readonly Role[])[0]!];
        const r = await opsCall(s, name, holder.token);
        if (def.stepUp)
          expect([r.status, r.body.data], `${name} without a fresh factor`).toEqual([
            403,
            'ops.errors.stepUp',
          ]);
        else expect(r.body.data, `${name} needs no step-up`).not.toBe('ops.errors.stepUp');
      }
      // And a staff token opens nothing of the customer API.
      for (const headers of [
        { token: team.admin.token },
        { authorization: `Bearer ${team.admin.token}` },
      ] as Record<string, string>[]) {
        const r = await s.call('userInfo', { headers });
        expect(r.status).toBe(401);
      }
    },
  );

  it.runIf(enabled)(
    'sign-in needs the second factor; idle and absolute limits end sessions; disabled members are out',
    async () => {
      const m = await enrolledMember(s, 'support');
      const wrong = await opsCall(s, 'login', null, { login: m.login, password: 'not the password' });
      expect(wrong.status).toBe(401);
      const token = await signInAgain(s, m);
      const me = await opsCall(s, 'me', token);
      expect(me.body.data).toMatchObject({
        login: m.login,
        stage: 'full',
        role: 'support',
        caps: ['work', 'chat', 'news'],
      });
      // A code is good once.
      const replay = await opsCall(s, 'verify', token, { code: '000000' });
      expect(replay.body.msg).toBe('no');
      // Idle: unused past OPS_IDLE_MS (polls do not count as use).
      s.clock.advance(s.config.ops.idleMs - 30_000);
      expect((await opsCall(s, 'me', token, {}, { 'x-ops-poll': '1' })).status).toBe(200);
      s.clock.advance(60_000);
      expect((await opsCall(s, 'me', token)).status).toBe(401);
      // Absolute: a session in use every few minutes still ends at OPS_SESSION_MS.
      const kept = await signInAgain(s, m);
      for (let t = 0; t < s.config.ops.sessionMs; t += s.config.ops.idleMs / 2) {
        s.clock.advance(s.config.ops.idleMs / 2);
        const r = await opsCall(s, 'me', kept);
        if (r.status === 401) break;
      }
      expect((await opsCall(s, 'me', kept)).status).toBe(401);
      // Refresh the team's sessions after the clock's long walk.
      for (const role of ROLES) team[role].token = await signInAgain(s, team[role]);
      // Disabled: every session ends at once; an admin cannot disable or re-role themselves.
      const live = await signInAgain(s, m);
      expect((await opsCall(s, 'staffDisable', team.admin.token, { id: team.admin.id })).body.data).toBe(
        'ops.errors.ownAction',
      );
      expect(
        (await opsCall(s, 'staffRole', team.admin.token, { id: team.admin.id, role: 'support' })).body.data,
      ).toBe('ops.errors.ownAction');
      expect((await opsCall(s, 'staffDisable', team.admin.token, { id: m.id })).body.msg).toBe('ok');
      expect((await opsCall(s, 'me', live)).status).toBe(401);
      expect((await opsCall(s, 'login', null, { login: m.login, password: STAFF_PASSWORD })).status).toBe(
        401,
      );
    },
  );

  it.runIf(enabled)(
    'an enrolment link works once; a password alone never opens the back office',
    async () => {
      const added = await opsCall(s, 'staffAdd', team.admin.token, {
        login: 'newbie',
        name: 'New Bie',
        role: 'kyc',
        contact: 'newbie@bourse.example',
      });
      expect(added.body.msg, JSON.stringify(added.body)).toBe('ok');
      // The link went to the member's own address, not into the admin's answer.
      expect(added.body.data).toMatchObject({ sentTo: 'n•••@bourse.example' });
      expect(JSON.stringify(added.body)).not.toMatch(/enrol#/);
      const token = outboxToken(s, 'newbie@bourse.example')!;
      const first = await opsCall(s, 'enrol', null, { token, password: STAFF_PASSWORD });
      expect(first.body.data.stage).toBe('enrol');
      expect((await opsCall(s, 'enrol', null, { token, password: STAFF_PASSWORD })).body.data).toBe(
        'ops.errors.enrolment',
      );
      // Without a factor a password opens only the enrolment of one, every time.
      const again = await opsCall(s, 'login', null, { login: 'newbie', password: STAFF_PASSWORD });
      expect(again.body.data.stage).toBe('enrol');
      expect((await opsCall(s, 'queues', again.body.data.token)).body.data).toBe('ops.errors.factorNeeded');
      expect((await opsCall(s, 'verify', again.body.data.token, { code: '123456' })).status).toBe(403);
    },
  );

  it.runIf(enabled)(
    'a payout above the threshold: the maker pays, it waits, the maker cannot approve, an approver pays it once',
    async () => {
      const c = await customer();
      const id = await withdraw(c.token, c.card, THRESHOLD_UNITS + 1);
      expect(await status(id)).toEqual({ status: WITHDRAW_STATUS.inProgress, hold: 'wallet.hold.review' });
      const queue = await opsCall(s, 'queues', team.payments.token);
      expect(
        queue.body.data.items.some(
          (i: { type: string; id: string }) => i.type === 'withdrawal' && i.id === String(id),
        ),
      ).toBe(true);
      await stepUp(s, team.payments);
      const paid = await opsCall(s, 'payoutPay', team.payments.token, { id });
      expect(paid.body.data).toMatchObject({ paid: false, approval: { status: 'awaiting', intact: true } });
      expect((await status(id)).status).toBe(WITHDRAW_STATUS.inProgress);
      // The maker again, even holding the approver's capability as an admin would: refused.
      expect((await opsCall(s, 'payoutPay', team.payments.token, { id })).body.data).toBe(
        'ops.errors.awaitingApproval',
      );
      const adminMaker = await customer();
      const id2 = await withdraw(adminMaker.token, adminMaker.card, THRESHOLD_UNITS + 5);
      await stepUp(s, team.admin);
      expect((await opsCall(s, 'payoutPay', team.admin.token, { id: id2 })).body.data.paid).toBe(false);
      expect((await opsCall(s, 'payoutApprove', team.admin.token, { id: id2 })).body.data).toBe(
        'ops.errors.ownAction',
      );
      // Two approvers race for the first one: one pays, the other is refused, paid once.
      const second = await enrolledMember(s, 'approver');
      await stepUp(s, team.approver);
      await stepUp(s, second);
      const race = await Promise.all([
        opsCall(s, 'payoutApprove', team.approver.token, { id }),
        opsCall(s, 'payoutApprove', second.token, { id }),
      ]);
      expect(race.map((r) => r.body.msg).sort()).toEqual(['no', 'ok']);
      expect((await status(id)).status).toBe(WITHDRAW_STATUS.paid);
      const approvals = await s.deps.database.db
        .selectFrom('payout_approvals')
        .selectAll()
        .where('withdrawal_id', '=', id)
        .execute();
      expect(approvals.map((a) => a.status)).toEqual(['approved']);
      expect((await opsCall(s, 'payoutApprove', team.approver.token, { id })).body.data).toBe(
        'ops.errors.notWaiting',
      );
      // The admin's request is approved by the approver.
      expect((await opsCall(s, 'payoutApprove', team.approver.token, { id: id2 })).body.data).toEqual({
        paid: true,
      });
      // Nothing above the threshold reaches the rail without a second person.
      const c3 = await customer();
      const id3 = await withdraw(c3.token, c3.card, THRESHOLD_UNITS + 1);
      expect((await opsCall(s, 'payoutRelease', team.payments.token, { id: id3 })).body.data).toBe(
        'ops.errors.needsApproval',
      );
    },
  );

  it.runIf(enabled)(
    'an approval is bound to the exact payout: a changed card voids it and nothing is paid',
    async () => {
      const c = await customer();
      const id = await withdraw(c.token, c.card, THRESHOLD_UNITS + 10);
      await stepUp(s, team.payments);
      expect((await opsCall(s, 'payoutPay', team.payments.token, { id })).body.data.paid).toBe(false);
      // The card is changed after the maker asked (as if by the customer or anyone with the database).
      await s.deps.database.db
        .updateTable('bank_cards')
        .set({ bank_card: '5012999988887771' })
        .where('id', '=', c.card)
        .execute();
      await stepUp(s, team.approver);
      const r = await opsCall(s, 'payoutApprove', team.approver.token, { id });
      expect([r.status, r.body.data]).toEqual([409, 'ops.errors.approvalVoid']);
      expect((await status(id)).status).toBe(WITHDRAW_STATUS.inProgress);
      const [a] = await s.deps.database.db
        .selectFrom('payout_approvals')
        .select('status')
        .where('withdrawal_id', '=', id)
        .execute();
      expect(a?.status).toBe('void');
      // Rejected with a reason: refunded, and the refund points at its audit entry.
      const rejected = await opsCall(s, 'payoutReject', team.payments.token, { id, reason: 'cardMismatch' });
      expect(rejected.body.msg).toBe('ok');
      const refund = await s.deps.database.db
        .selectFrom('ledger')
        .selectAll()
        .where('ref_type', '=', 'withdrawal')
        .where('ref_id', '=', id)
        .where('reason', '=', 'withdrawRefund')
        .executeTakeFirstOrThrow();
      const entry = await s.deps.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('seq', '=', refund.audit_seq!)
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({
        action: 'payout:reject',
        actor: `staff:${team.payments.id}`,
        reason: 'cardMismatch',
        customer_id: c.id,
      });
      expect(JSON.parse(entry.after!).postings).toEqual([refund.id]);
    },
  );

  it.runIf(enabled)(
    'real-name: rejected with a reason the customer reads, sent again, approved; photos only to the KYC role',
    async () => {
      const u = await s.signUp();
      const submit = async () => {
        const front = (await upload(s, u.token, PNG)).body.data as { url: string };
        const back = (await upload(s, u.token, PNG)).body.data as { url: string };
        const r = await s.call('kycSubmit', {
          token: u.token,
          body: {
            real_name: 'Asha Rao',
            id_type: 'idCard',
            id_number: 'ABCDE1234F',
            id_number_img: front.url,
            id_number_img_two: back.url,
          },
        });
        expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
      };
      await submit();
      const kase = await opsCall(s, 'kycCase', team.kyc.token, { userId: u.id });
      expect(kase.body.data).toMatchObject({
        realName: 'Asha Rao',
        idNumber: 'ABCDE1234F',
        status: KYC_STATUS.underReview,
      });
      const photo = await s.app.inject({
        url: `${s.config.apiBase}/ops/kyc/photo?userId=${u.id}&side=front`,
        headers: { authorization: `Bearer ${team.kyc.token}` },
      });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toBe('image/png');
      expect(photo.headers['cache-control']).toBe('no-store');
      expect(photo.rawPayload.equals(PNG)).toBe(true);
      const support = await opsCall(s, 'kycPhoto', team.support.token, { userId: u.id, side: 'front' });
      expect(support.status).toBe(403);
      // "Other" needs the text the customer will read.
      expect(
        (await opsCall(s, 'kycReject', team.kyc.token, { userId: u.id, reason: 'other' })).body.data,
      ).toBe('ops.errors.reasonText');
      const rejected = await opsCall(s, 'kycReject', team.kyc.token, {
        userId: u.id,
        reason: 'photos',
        text: 'The back photo is blurred.',
      });
      expect(rejected.body.msg).toBe('ok');
      const seen = await s.call('kycState', { token: u.token });
      expect(seen.body.data).toMatchObject({
        status: KYC_STATUS.rejected,
        reason: 'photos',
        note: 'The back photo is blurred.',
      });
      await submit();
      await stepUp(s, team.kyc);
      expect((await opsCall(s, 'kycApprove', team.kyc.token, { userId: u.id })).body.msg).toBe('ok');
      expect((await s.call('kycState', { token: u.token })).body.data).toMatchObject({
        status: KYC_STATUS.approved,
        reason: null,
      });
      const history = (await opsCall(s, 'kycCase', team.kyc.token, { userId: u.id })).body.data.history;
      expect(history.map((h: { action: string }) => h.action)).toEqual(['kyc:approve', 'kyc:newPhotos']);
    },
  );

  it.runIf(enabled)(
    'chat: the agent reads (the customer sees Read), typing both ways, replies audited, CSV safe',
    async () => {
      const u = await s.signUp();
      const sent = await s.call('messageSend', {
        token: u.token,
        body: { message: '=HYPERLINK("http://x","Click")' },
      });
      expect(sent.body.msg).toBe('ok');
      const inbox = await opsCall(s, 'chats', team.support.token, { box: 'unassigned' });
      const mine = inbox.body.data.find((c: { userId: number }) => c.userId === u.id);
      expect(mine).toMatchObject({ unread: 1, assignedTo: null, lastSender: 'user' });
      expect(mine.waitingSince).not.toBeNull();
      expect((await s.call('chatState', { token: u.token })).body.data.read_up_to).toBe(0);
      await s.call('chatTyping', { token: u.token, body: {} });
      const thread = await opsCall(s, 'chat', team.support.token, { userId: u.id });
      expect(thread.body.data.customerTyping).toBe(true);
      expect((await s.call('chatState', { token: u.token })).body.data.read_up_to).toBe(sent.body.data.id);
      await opsCall(s, 'chatTyping', team.support.token, { userId: u.id });
      expect((await s.call('chatState', { token: u.token })).body.data.agent_typing).toBe(true);
      const reply = await opsCall(s, 'chatReply', team.support.token, {
        userId: u.id,
        body: 'Hello! <b>not bold</b>',
      });
      expect(reply.body.data).toMatchObject({ sender: 'agent', body: 'Hello! <b>not bold</b>' });
      const state = (await s.call('chatState', { token: u.token })).body.data;
      expect(state).toMatchObject({ agent_typing: false, latest_id: reply.body.data.id });
      expect((await s.call('unreadCount', { token: u.token })).body.data.unread_count).toBe(1);
      // Replying made the chat the agent's.
      const assigned = await opsCall(s, 'chats', team.support.token, { box: 'mine' });
      expect(assigned.body.data.some((c: { userId: number }) => c.userId === u.id)).toBe(true);
      const after = await opsCall(s, 'chat', team.support.token, { userId: u.id });
      expect(after.body.data.firstReplyMs).toBeGreaterThanOrEqual(0);
      // The export never hands a spreadsheet a formula.
      const csv = await s.app.inject({
        url: `${s.config.apiBase}/ops/audit/csv?customer=${u.id}`,
        headers: { authorization: `Bearer ${team.admin.token}` },
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/text\/csv/);
      expect(csv.body).toContain('chat:reply');
      for (const line of csv.body.trim().split('\r\n'))
        for (const cell of line.split('","')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
    },
  );

  it.runIf(enabled)(
    'the audit log refuses UPDATE and DELETE; its chain shows tampering; the console logs its operator',
    async () => {
      const { db } = s.deps.database;
      await expect(sql`update audit_log set actor_name = 'someone else'`.execute(db)).rejects.toThrow(
        /append-only/,
      );
      await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
      const loan = await (async () => {
        const u = await s.signUp();
        const r = await s.call('loanApply', {
          token: u.token,
          body: { count: 1000 },
          headers: idem(),
        });
        expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
        return r.body.data.id as number;
      })();
      const command = COMMANDS.find((c) => c.name === 'loan:approve')!;
      await command.run(s.deps, [String(loan)], consoleActor('priya'));
      const borrow = await db
        .selectFrom('ledger')
        .selectAll()
        .where('ref_type', '=', 'loan')
        .where('ref_id', '=', loan)
        .executeTakeFirstOrThrow();
      const entry = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('seq', '=', borrow.audit_seq!)
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ actor: 'cli:priya', actor_name: 'priya', action: 'loan:approve' });
      const verified = await COMMANDS.find((c) => c.name === 'audit:verify')!.run(s.deps, []);
      expect(verified).toMatch(/chain unbroken/);
    },
  );
});
