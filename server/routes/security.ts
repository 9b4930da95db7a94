import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '#shared/contract/index';
import {
  passkeyAdd,
  passkeyOptions,
  passkeyRemove,
  passkeyRename,
  recoveryRenew,
  totpConfirm,
  totpRemove,
  totpSetup,
} from '../account/factor-enrolment';
import {
  type Caller,
  factorChallenge,
  secondFactor,
  securityChanges,
  securityChangesSeen,
  securityState,
  stepUp,
  unlock,
} from '../account/two-factor';
import { type AuthUser, tokenOf } from '../lib/auth';
import { route } from '../lib/route';

/** Two-factor sign-in (src/shared/contract/security.ts): each route hands its input to account/two-factor.ts or account/factor-enrolment.ts. */
export async function securityRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const caller = (user: AuthUser, req: FastifyRequest): Caller => ({
    ...user,
    ip: req.ip,
    userAgent: req.headers['user-agent'],
    token: tokenOf(req) ?? '',
  });
  // The browser library's JSON types: the contract's schemas checked their shape already.
  const assertion = (x: unknown) => x as AuthenticationResponseJSON | undefined;

  route(app, contract.securityState, ({ user }) => securityState(deps, user));
  route(app, contract.passkeyOptions, ({ user, req }) => passkeyOptions(deps, caller(user, req)));
  route(app, contract.passkeyAdd, ({ user, req, input }) =>
    passkeyAdd(deps, caller(user, req), {
      response: input.response as unknown as RegistrationResponseJSON,
      name: input.name,
    }),
  );
  route(app, contract.passkeyRename, ({ user, input }) => passkeyRename(deps, user, input));
  route(app, contract.passkeyRemove, ({ user, req, input }) =>
    passkeyRemove(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
  route(app, contract.totpSetup, ({ user, req }) => totpSetup(deps, caller(user, req)));
  route(app, contract.totpConfirm, ({ user, req, input }) => totpConfirm(deps, caller(user, req), input));
  route(app, contract.totpRemove, ({ user, req, input }) =>
    totpRemove(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
  route(app, contract.recoveryRenew, ({ user, req, input }) =>
    recoveryRenew(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
  route(app, contract.stepUp, ({ user, req, input }) =>
    stepUp(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
  route(app, contract.securityChanges, ({ user, req }) => securityChanges(deps, caller(user, req)));
  route(app, contract.securityChangesSeen, ({ user, req, input }) =>
    securityChangesSeen(deps, caller(user, req), input),
  );
  route(app, contract.factorChallenge, ({ user }) => factorChallenge(deps, user));
  route(app, contract.secondFactor, ({ user, req, input }) =>
    secondFactor(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
  route(app, contract.unlock, ({ user, req, input }) =>
    unlock(deps, caller(user, req), { ...input, passkey: assertion(input.passkey) }),
  );
}
