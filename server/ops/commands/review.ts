import { fromMinor } from '#shared/money';
import { KYC_STATUS, RECHARGE_STATUS } from '#shared/status';
import { approveKyc, rejectKyc } from '../../account/kyc-review';
import type { Deps } from '../../deps';
import { maskTail } from '../../lib/mask';
import { applyingLoans } from '../../wallet/loan-decisions';
import { withdrawalsInProgress } from '../../wallet/withdraw';
import { idArg, iso, options } from './args';
import type { OpsCommand } from './command';
import { consoleError, operatorActor } from './operator';

/**
 * What waits for a human across domains (`pending`), and the real-name (KYC) decisions — the
 * same functions the back office calls (account/kyc-review.ts), audited under the console's operator. Each acts only
 * on a row in the state it expects, so a repeated command changes nothing twice.
 */

/** Everything waiting for a human, oldest first. */
export async function pending(deps: Deps) {
  const { db } = deps.database;
  const [kyc, loans, withdrawals, recharges, chats] = await Promise.all([
    db
      .selectFrom('kyc')
      .innerJoin('users', 'users.id', 'kyc.user_id')
      .select([
        'kyc.user_id',
        'users.phone',
        'kyc.real_name',
        'kyc.id_type',
        'kyc.id_number',
        'kyc.updated_at',
      ])
      .where('kyc.status', '=', KYC_STATUS.underReview)
      .orderBy('kyc.updated_at')
      .execute(),
    applyingLoans(db).execute(),
    withdrawalsInProgress(db).orderBy('withdrawals.id').execute(),
    db
      .selectFrom('recharges')
      .select(['id', 'user_id', 'amount', 'method', 'created_at', 'settle_at'])
      .where('status', '=', RECHARGE_STATUS.inProgress)
      .orderBy('id')
      .execute(),
    // Chats whose latest message is the user's: someone is waiting for an answer.
    db
      .selectFrom('messages as m')
      .innerJoin('users', 'users.id', 'm.user_id')
      .select(['m.user_id', 'users.phone', 'm.body', 'm.created_at'])
      .where('m.sender', '=', 'user')
      .where('m.id', '=', (eb) =>
        eb
          .selectFrom('messages as last')
          .select((e) => e.fn.max('last.id').as('id'))
          .whereRef('last.user_id', '=', 'm.user_id'),
      )
      .orderBy('m.created_at')
      .execute(),
  ]);
  return {
    kyc: kyc.map((k) => ({
      userId: k.user_id,
      phone: k.phone,
      name: k.real_name,
      idType: k.id_type,
      idNumber: maskTail(k.id_number),
      submitted: iso(k.updated_at),
    })),
    loans: loans.map((l) => ({
      id: l.id,
      userId: l.user_id,
      phone: l.phone,
      creditScore: l.credit_score,
      amount: fromMinor(l.amount),
      applied: iso(l.created_at),
    })),
    withdrawals: withdrawals.map((w) => ({
      id: w.id,
      userId: w.user_id,
      amount: fromMinor(w.amount),
      bank: w.bank,
      card: maskTail(w.bank_card),
      ifsc: w.ifsc,
      asked: iso(w.created_at),
      // Held: only the operator moves it on (withdraw:release|pay|reject); say why and since when.
      held: w.hold,
      cardChanged: iso(Math.max(w.card_added, w.card_changed)),
      sandboxSettles: w.hold ? null : iso(w.settle_at),
    })),
    recharges: recharges.map((r) => ({
      id: r.id,
      userId: r.user_id,
      amount: fromMinor(r.amount),
      method: r.method,
      asked: iso(r.created_at),
      sandboxSettles: iso(r.settle_at),
    })),
    chats: chats.map((c) => ({
      userId: c.user_id,
      phone: c.phone,
      lastMessage: c.body,
      since: iso(c.created_at),
    })),
  };
}

export const REVIEW_COMMANDS: OpsCommand[] = [
  {
    name: 'pending',
    usage: 'pending',
    summary: 'everything waiting for a human: KYC, loans, withdrawals, recharges, chats',
    mutates: false,
    run: (deps) => pending(deps),
  },
  {
    name: 'kyc:approve',
    usage: 'kyc:approve <userId>',
    summary: 'approve a real-name verification under review',
    mutates: true,
    async run(deps, [arg], actor) {
      const userId = idArg(arg, 'user');
      await approveKyc(deps, operatorActor(deps, actor), userId).catch((err: unknown) => {
        throw consoleError(err, `User ${userId} has no verification under review`);
      });
      return `Verification of user ${userId} approved`;
    },
  },
  {
    name: 'kyc:reject',
    usage: 'kyc:reject <userId> [note] [--reason photos|unreadable|mismatch|expired|other]',
    summary: 'reject a verification under review (the user may submit again; photos: asks for new photos)',
    mutates: true,
    async run(deps, args, actor) {
      const { positional, named } = options(args);
      const [arg, ...note] = positional;
      const userId = idArg(arg, 'user');
      const text = note.join(' ');
      await rejectKyc(
        deps,
        operatorActor(deps, actor),
        userId,
        named.reason ?? (text ? 'other' : 'unreadable'),
        text,
      ).catch((err: unknown) => {
        throw consoleError(err, `User ${userId} has no verification under review`);
      });
      return `Verification of user ${userId} rejected`;
    },
  },
];
