import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '#shared/backoffice';
import { LOAN_STATE, WITHDRAW_STATUS } from '#shared/status';
import { consoleActor } from '../../server/lib/audit-log';
import { verifyAuditChain } from '../../server/lib/audit-verify';
import { COMMANDS } from '../../server/ops/commands/index';
import { approvePayout, payPayout } from '../../server/wallet/payouts';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  enrolledMember,
  enrolWith,
  type Member,
  opsCall,
  outboxToken,
  signInAgain,
  stepUp,
} from '../support/staff';
import { credit, expectLedgerConsistent, idem, insertIpo } from '../support/trading';
import { addCard, ensureTradeCode, PNG, TRADE_CODE, upload } from '../support/wallet';

/**
 * Maker-checker that knows people, tried as a dishonest insider. Each
 * attack succeeded before: an admin created an approver, enrolled it with their own phone from the
 * link the back office handed them, and approved their own ₹2,50,000 payout with it (IPO allotment
 * the same); the console approved with a second OPS_OPERATOR name; an admin paid a payout another
 * member had claimed; a ₹2,00,000+ loan was one person's decision; two ₹1,50,000 payouts to one
 * customer passed a per-payout threshold of ₹2,00,000. Each is a named refusal now.
 */

const LAKH = 100_000;

describe.each(DIALECTS)('staff controls on $name', ({ name, enabled }) => {
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

  async function customer(units = 10 * LAKH) {
    const u = await s.signUp();
    await credit(s, u.id, units * 100);
    const card = await addCard(s, u.token);
    return { ...u, card };
  }
  async function withdraw(c: { token: string; card: number }, count: number) {
    await ensureTradeCode(s, c.token);
    const r = await s.call('withdraw', {
      token: c.token,
      body: { bank_id: c.card, count, stock_password: TRADE_CODE },
      headers: idem(),
    });
    expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    return r.body.data.id as number;
  }
  const withdrawal = (id: number) =>
    s.deps.database.db
      .selectFrom('withdrawals')
      .select(['status', 'hold'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** A member the admin adds through the back office, enrolled from the link in their own mail. */
  async function addedByAdmin(role: Role, login: string): Promise<Member> {
    await stepUp(s, team.admin);
    const contact = `${login}@bourse.example`;
    const r = await opsCall(s, 'staffAdd', team.admin.token, { login, name: login, role, contact });
    expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
    const { token, secret } = await enrolWith(s, outboxToken(s, contact)!);
    return { id: r.body.data.staff.id, login, role, token, secret };
  }

  it.runIf(enabled)(
    'finding 6: the enrolment link of a member an admin adds goes to the member, never into the admin’s answer; its use is audited',
    async () => {
      await stepUp(s, team.admin);
      const r = await opsCall(s, 'staffAdd', team.admin.token, {
        login: 'lena',
        name: 'Lena Fischer',
        role: 'approver',
        contact: 'lena@bourse.example',
      });
      expect(r.body.data).toMatchObject({
        sentTo: 'l•••@bourse.example',
        staff: { createdBy: `staff:${team.admin.id}` },
      });
      expect(JSON.stringify(r.body)).not.toMatch(/enrol#|link/);
      // Without a contact of the member's own there is no member.
      const none = await opsCall(s, 'staffAdd', team.admin.token, {
        login: 'nocontact',
        name: 'N',
        role: 'approver',
        contact: 'me',
      });
      expect(none.body.data).toBe('ops.errors.contact');
      const token = outboxToken(s, 'lena@bourse.example');
      expect(token).toBeTruthy();
      await enrolWith(s, token!);
      const use = await s.deps.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'staff:enrolLink')
        .where('target_id', '=', String(r.body.data.staff.id))
        .executeTakeFirstOrThrow();
      expect(JSON.parse(use.after!)).toHaveProperty('address');
    },
  );

  it.runIf(enabled)(
    'finding 6: an approver the admin created cannot approve the admin’s payout, nor one created by the admin’s admin; an independent approver can',
    async () => {
      const c = await customer();
      const id = await withdraw(c, 2.5 * LAKH);
      await stepUp(s, team.admin);
      expect((await opsCall(s, 'payoutPay', team.admin.token, { id })).body.data.paid).toBe(false);
      const own = await addedByAdmin('approver', 'own.approver');
      await stepUp(s, own);
      const refused = await opsCall(s, 'payoutApprove', own.token, { id });
      expect([refused.status, refused.body.data]).toEqual([403, 'ops.errors.makerRelated']);
      // One step removed: the admin's new admin adds an approver.
      const deputy = await addedByAdmin('admin', 'deputy');
      await stepUp(s, deputy);
      const grandchild = await opsCall(s, 'staffAdd', deputy.token, {
        login: 'grandchild',
        name: 'G',
        role: 'approver',
        contact: 'grandchild@bourse.example',
      });
      const g = await enrolWith(s, outboxToken(s, 'grandchild@bourse.example')!);
      await stepUp(s, { id: grandchild.body.data.staff.id, login: 'grandchild', role: 'approver', ...g });
      expect((await opsCall(s, 'payoutApprove', g.token, { id })).body.data).toBe('ops.errors.makerRelated');
      expect((await withdrawal(id)).status).toBe(WITHDRAW_STATUS.inProgress);
      // The refusals are in the audit log.
      const denied = await s.deps.database.db
        .selectFrom('audit_log')
        .select('actor')
        .where('action', '=', 'denied:payoutApprove')
        .where('reason', '=', 'ops.errors.makerRelated')
        .orderBy('seq')
        .execute();
      expect(denied.map((d) => d.actor)).toEqual([
        `staff:${own.id}`,
        `staff:${grandchild.body.data.staff.id}`,
      ]);
      await stepUp(s, team.approver);
      expect((await opsCall(s, 'payoutApprove', team.approver.token, { id })).body.data).toEqual({
        paid: true,
      });
    },
  );

  it.runIf(enabled)('finding 6: a member the maker re-enrolled cannot check the maker’s work', async () => {
    const approver = await addedByAdmin('approver', 'reenrolled');
    // Created by the admin; an independent admin re-enrols them later (lost phone).
    const other = await enrolledMember(s, 'admin');
    await stepUp(s, other);
    const again = await opsCall(s, 'staffReenrol', other.token, { id: approver.id });
    expect(again.body.data).toMatchObject({ sentTo: 'r•••@bourse.example' });
    const fresh = await enrolWith(s, outboxToken(s, 'reenrolled@bourse.example')!);
    const c = await customer();
    const id = await withdraw(c, 2.5 * LAKH);
    await stepUp(s, other);
    expect((await opsCall(s, 'payoutPay', other.token, { id })).body.data.paid).toBe(false);
    const member = { ...approver, ...fresh };
    await stepUp(s, member);
    expect((await opsCall(s, 'payoutApprove', member.token, { id })).body.data).toBe(
      'ops.errors.makerRelated',
    );
    // 31 days on, the relation no longer counts.
    s.clock.advance(31 * 86_400_000);
    member.token = await signInAgain(s, member);
    await stepUp(s, member);
    expect((await opsCall(s, 'payoutApprove', member.token, { id })).body.data).toEqual({ paid: true });
    for (const role of ROLES) team[role].token = await signInAgain(s, team[role]);
  });

  it.runIf(enabled)(
    'finding 6: the console makes but never gives a second approval, whatever OPS_OPERATOR says',
    async () => {
      expect(COMMANDS.find((c) => c.name === 'withdraw:approve')).toBeUndefined();
      const c = await customer();
      const id = await withdraw(c, 2.5 * LAKH);
      const pay = COMMANDS.find((cmd) => cmd.name === 'withdraw:pay')!;
      expect(await pay.run(s.deps, [String(id)], consoleActor('alice'))).toMatch(
        /waits for a second approval/,
      );
      await expect(approvePayout(s.deps, consoleActor('bob'), id)).rejects.toMatchObject({
        key: 'ops.errors.consoleChecks',
      });
      // A member the console created lately counts as the console's.
      const made = await enrolledMember(s, 'approver');
      await stepUp(s, made);
      expect((await opsCall(s, 'payoutApprove', made.token, { id })).body.data).toBe(
        'ops.errors.makerRelated',
      );
      expect((await withdrawal(id)).status).toBe(WITHDRAW_STATUS.inProgress);
      // A loan above the threshold from the console: asked, never checked there.
      const u = await s.signUp();
      await s.deps.database.db
        .updateTable('users')
        .set({ credit_score: 1000 })
        .where('id', '=', u.id)
        .execute();
      const loan = await s.call('loanApply', { token: u.token, body: { count: 2 * LAKH }, headers: idem() });
      const loanId = loan.body.data.id as number;
      const approve = COMMANDS.find((cmd) => cmd.name === 'loan:approve')!;
      expect(await approve.run(s.deps, [String(loanId)], consoleActor('alice'))).toMatch(
        /waits for a second approval/,
      );
      await expect(approve.run(s.deps, [String(loanId)], consoleActor('bob'))).rejects.toThrow(
        /never give the second approval/,
      );
    },
  );

  it.runIf(enabled)(
    'finding 6: an IPO allotment is run neither by an approver the proposer created nor from the console; above the threshold the console only proposes',
    async () => {
      const ipo = await insertIpo(s, { issue_price: 1000 });
      const investor = await s.signUp();
      await credit(s, investor.id, 10 * LAKH * 100);
      const applied = await s.call('ipoBuy', {
        token: investor.token,
        body: { id: ipo.id, tag: ipo.symbol, count: 300, price: 1000 },
        headers: idem(),
      });
      expect(applied.body.msg, JSON.stringify(applied.body)).toBe('ok');
      // ₹3,00,000 of applications: the console proposes, and says who runs it.
      const allot = COMMANDS.find((cmd) => cmd.name === 'ipo:allot')!;
      const out = (await allot.run(s.deps, [String(ipo.id)], consoleActor('alice'))) as { proposed: number };
      expect(out).toMatchObject({ ipo: ipo.id, charged: '300000.00', proposed: expect.any(Number) });
      const own = await enrolledMember(s, 'approver');
      await stepUp(s, own);
      const byConsoleMember = await opsCall(s, 'ipoRun', own.token, { id: ipo.id, proposal: out.proposed });
      expect(byConsoleMember.body.data).toBe('ops.errors.makerRelated');
      // The admin proposes again; the admin's own approver cannot run it, an independent one can.
      await stepUp(s, team.admin);
      const proposal = await opsCall(s, 'ipoPropose', team.admin.token, { id: ipo.id, ratio: '1' });
      expect(proposal.body.msg, JSON.stringify(proposal.body)).toBe('ok');
      const mine = await addedByAdmin('approver', 'ipo.approver');
      await stepUp(s, mine);
      const pid = proposal.body.data.proposal.id;
      expect((await opsCall(s, 'ipoRun', mine.token, { id: ipo.id, proposal: pid })).body.data).toBe(
        'ops.errors.makerRelated',
      );
      await stepUp(s, team.approver);
      const run = await opsCall(s, 'ipoRun', team.approver.token, { id: ipo.id, proposal: pid });
      expect(run.body.data).toMatchObject({ allotted: 1 });
    },
  );

  it.runIf(enabled)(
    'finding 9: a claimed payout is decided by its claimant or by an admin who says why, by no one else',
    async () => {
      const c = await customer();
      const id = await withdraw(c, 1 * LAKH);
      await s.deps.database.db
        .updateTable('withdrawals')
        .set({ hold: 'wallet.hold.newCard' })
        .where('id', '=', id)
        .execute();
      expect(
        (await opsCall(s, 'claim', team.payments.token, { type: 'withdrawal', id: String(id) })).body.msg,
      ).toBe('ok');
      const other = await enrolledMember(s, 'payments');
      await stepUp(s, other);
      expect((await opsCall(s, 'payoutPay', other.token, { id })).body.data).toBe(
        'ops.errors.claimedByOther',
      );
      await stepUp(s, team.admin);
      expect((await opsCall(s, 'payoutPay', team.admin.token, { id })).body.data).toBe(
        'ops.errors.overrideReason',
      );
      const paid = await opsCall(s, 'payoutPay', team.admin.token, { id, override: 'Dev is on leave today' });
      expect(paid.body.data).toMatchObject({ paid: true });
      const entry = await s.deps.database.db
        .selectFrom('audit_log')
        .select('after')
        .where('action', '=', 'payout:pay')
        .where('target_id', '=', String(id))
        .executeTakeFirstOrThrow();
      expect(JSON.parse(entry.after!).override).toMatchObject({
        claimedBy: team.payments.id,
        reason: 'Dev is on leave today',
      });
    },
  );

  it.runIf(enabled)('finding 9: a loan above LOAN_APPROVAL_ABOVE is two people’s decision', async () => {
    const u = await s.signUp();
    await s.deps.database.db
      .updateTable('users')
      .set({ credit_score: 1000 })
      .where('id', '=', u.id)
      .execute();
    const applied = await s.call('loanApply', { token: u.token, body: { count: 3 * LAKH }, headers: idem() });
    const id = applied.body.data.id as number;
    await stepUp(s, team.approver);
    const first = await opsCall(s, 'loanApprove', team.approver.token, { id });
    expect(first.body.data).toMatchObject({
      disbursed: false,
      approval: { status: 'awaiting', makerName: expect.any(String) },
    });
    const state = async () =>
      (
        await s.deps.database.db
          .selectFrom('loans')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await state()).toBe(LOAN_STATE.applying);
    expect((await opsCall(s, 'loanApprove', team.approver.token, { id })).body.data).toBe(
      'ops.errors.ownAction',
    );
    const listed = (await opsCall(s, 'loans', team.admin.token)).body.data.find(
      (l: { id: number }) => l.id === id,
    );
    expect(listed).toMatchObject({ needsApproval: true, approval: { status: 'awaiting', intact: true } });
    await stepUp(s, team.admin);
    expect((await opsCall(s, 'loanApprove', team.admin.token, { id })).body.data).toMatchObject({
      disbursed: true,
    });
    expect(await state()).toBe(LOAN_STATE.unpaid);
    // At or below the threshold one person still decides.
    const small = await s.call('loanApply', { token: u.token, body: { count: 50_000 }, headers: idem() });
    await stepUp(s, team.approver);
    expect(
      (await opsCall(s, 'loanApprove', team.approver.token, { id: small.body.data.id })).body.data,
    ).toMatchObject({
      disbursed: true,
    });
  });

  it.runIf(enabled)(
    'finding 9: two ₹1,50,000 payouts to one customer in a day: the second is held and needs a second person',
    async () => {
      const c = await customer();
      const first = await withdraw(c, 1.5 * LAKH);
      const second = await withdraw(c, 1.5 * LAKH);
      expect(await withdrawal(first)).toEqual({ status: WITHDRAW_STATUS.inProgress, hold: null });
      // The day's total (₹3,00,000) is above the threshold: kept from the rail for two people.
      expect(await withdrawal(second)).toEqual({
        status: WITHDRAW_STATUS.inProgress,
        hold: 'wallet.hold.review',
      });
      await stepUp(s, team.payments);
      expect((await opsCall(s, 'payoutPay', team.payments.token, { id: first })).body.data).toMatchObject({
        paid: true,
      });
      expect((await opsCall(s, 'payoutRelease', team.payments.token, { id: second })).body.data).toBe(
        'ops.errors.needsApproval',
      );
      const asked = await payPayout(
        s.deps,
        { key: `staff:${team.payments.id}`, name: 'p', role: 'payments', staffId: team.payments.id },
        second,
      );
      expect(asked).toMatchObject({ paid: false, approval: { status: 'awaiting' } });
      const rows = (await opsCall(s, 'payouts', team.approver.token)).body.data.rows;
      expect(rows.find((r: { id: number }) => r.id === second)).toMatchObject({
        dayTotal: '300000.00',
        needsApproval: true,
      });
      // A day later the next ₹1,50,000 is one person's again.
      s.clock.advance(24 * 3_600_000 + 1);
      for (const role of ROLES) team[role].token = await signInAgain(s, team[role]);
      const later = await withdraw(c, 1.5 * LAKH);
      expect((await withdrawal(later)).hold).toBeNull();
    },
  );

  it.runIf(enabled)(
    'finding 9: real-name: the same image as front and back, and an ID number approved for another customer, are flagged to the officer',
    async () => {
      const submit = async (token: string, idNumber: string, back: Buffer) => {
        const f = (await upload(s, token, PNG)).body.data as { url: string };
        const b = (await upload(s, token, back)).body.data as { url: string };
        const r = await s.call('kycSubmit', {
          token,
          body: {
            real_name: 'Asha Rao',
            id_type: 'idCard',
            id_number: idNumber,
            id_number_img: f.url,
            id_number_img_two: b.url,
          },
        });
        expect(r.body.msg, JSON.stringify(r.body)).toBe('ok');
      };
      // A genuine customer, approved.
      const first = await s.signUp();
      const other = Buffer.concat([PNG, Buffer.from([0])]);
      await submit(first.token, 'ABCDE 1234-F', other);
      await stepUp(s, team.kyc);
      expect((await opsCall(s, 'kycApprove', team.kyc.token, { userId: first.id })).body.msg).toBe('ok');
      expect((await opsCall(s, 'kycCase', team.kyc.token, { userId: first.id })).body.data.flags).toEqual([]);
      // Another account with the same number (written differently) and one picture sent twice.
      const second = await s.signUp();
      await submit(second.token, 'abcde1234f', PNG);
      const kase = (await opsCall(s, 'kycCase', team.kyc.token, { userId: second.id })).body.data;
      expect(kase.flags).toEqual([
        { code: 'samePhoto' },
        { code: 'idNumberApproved', customers: [{ userId: first.id, name: 'Asha Rao' }] },
      ]);
      // A third under review at the same time sees both others.
      const third = await s.signUp();
      await submit(third.token, 'ABCDE1234F', other);
      const flags = (await opsCall(s, 'kycCase', team.kyc.token, { userId: third.id })).body.data.flags;
      expect(flags).toEqual([
        { code: 'idNumberApproved', customers: [{ userId: first.id, name: 'Asha Rao' }] },
        { code: 'idNumberInReview', customers: [{ userId: second.id, name: 'Asha Rao' }] },
      ]);
      // The list carries them too.
      const listed = (await opsCall(s, 'kycList', team.kyc.token)).body.data.find(
        (c: { userId: number }) => c.userId === second.id,
      );
      expect(listed.flags.map((f: { code: string }) => f.code)).toEqual([
        'samePhoto',
        'idNumberApproved',
        'idNumberInReview',
      ]);
    },
  );
});
