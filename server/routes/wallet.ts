import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { fromMinor } from '#shared/money';
import { requireVerified } from '../account/kyc-gate';
import { hotReads } from '../db/hot';
import { route } from '../lib/route';
import { applyLoan, loanData, repayLoan } from '../wallet/loans';
import { requestRecharge } from '../wallet/recharge';
import { bills, loanRecords, rechargeRecords, recordDetail, withdrawRecords } from '../wallet/records';
import { requestWithdrawal } from '../wallet/withdraw';
import { ANSWERS } from './answers';

/** The wallet (src/shared/contract/wallet.ts): each route hands its input to server/wallet/. */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;

  route(
    app,
    contract.balance,
    async ({ user }) => {
      const balance = await hotReads(deps.database).balance(user.id);
      if (balance === undefined) throw new Error(`user ${user.id} of a valid session is missing`);
      return { balance: fromMinor(balance) };
    },
    { answer: ANSWERS.balance },
  );
  route(app, contract.bill, ({ db, user, input }) => bills(db, user.id, input));
  // REQUIRE_KYC: money comes in only to a verified account (account/kyc-gate.ts).
  route(app, contract.recharge, async ({ db, user, input }) => {
    await requireVerified(deps, db, user.id);
    return requestRecharge(deps, db, user.id, input);
  });
  route(app, contract.withdraw, ({ db, user, input }) => requestWithdrawal(deps, db, user.id, input));
  route(app, contract.rechargeRecords, ({ db, user, input }) => rechargeRecords(db, user.id, input));
  route(app, contract.withdrawRecords, ({ db, user, input }) => withdrawRecords(db, user.id, input));
  route(app, contract.recordDetail, ({ db, user, input }) => recordDetail(db, user.id, input));
  route(app, contract.loanData, ({ db, user }) => loanData(deps, db, user.id));
  route(app, contract.loanApply, async ({ db, user, input }) => {
    await requireVerified(deps, db, user.id);
    return applyLoan(deps, db, user.id, input);
  });
  route(app, contract.loanList, ({ db, user }) => loanRecords(db, user.id));
  route(app, contract.loanRepay, ({ db, user, input }) => repayLoan(deps, db, user.id, input));
}
