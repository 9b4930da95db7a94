import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { userInfo } from '../account/assets';
import { moneyOutcome } from '../account/money-outcome';
import { onboarding } from '../account/onboarding';
import { register } from '../account/registration';
import { forgetPassword, login, logout, prepareSignIn } from '../account/sign-in';
import { tokenOf } from '../lib/auth';
import { route } from '../lib/route';
import { ANSWERS } from './answers';

/** Sign-up, sign-in and the account (src/shared/contract/account.ts): each route hands its input to server/account/. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  prepareSignIn(deps);

  route(app, contract.register, ({ input, req }) => register(deps, input, req.ip));

  route(app, contract.login, ({ input, req }) => login(deps, input, req.ip, req.headers['user-agent']));

  route(app, contract.forget, ({ input, req }) =>
    forgetPassword(deps, input, req.ip, req.headers['user-agent']),
  );

  route(app, contract.moneyOutcome, ({ db, user, input }) => moneyOutcome(db, user.id, input.key));

  route(app, contract.onboarding, ({ db, user }) => onboarding(db, user.id));

  route(app, contract.userInfo, ({ user }) => userInfo(deps, user.id), { answer: ANSWERS.userInfo });

  route(app, contract.logout, ({ req }) => logout(deps, tokenOf(req)));
}
