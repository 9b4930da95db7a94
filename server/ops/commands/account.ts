import type { AccountAction } from '#shared/backoffice';
import { endCustomerSessions, requestControl } from '../../account/controls';
import { idArg } from './args';
import type { OpsCommand } from './command';
import { consoleError, operatorActor } from './operator';

/**
 * Controls over a customer's account from the console, through the same decisions the back
 * office calls (server/account/controls.ts). The console asks but never approves: a freeze, unfreeze
 * or factor reset asked here waits for a member of staff's approval on the customer's page. Ending
 * the sessions is one person's action and happens at once. Each takes the reason after the id.
 */

function asking(name: string, action: AccountAction, summary: string): OpsCommand {
  return {
    name,
    usage: `${name} <userId> <reason…>`,
    summary,
    mutates: true,
    async run(deps, [arg, ...words], actor) {
      const userId = idArg(arg, 'customer');
      const request = await requestControl(
        deps,
        operatorActor(deps, actor),
        userId,
        action,
        words.join(' '),
      ).catch((err: unknown) => {
        throw consoleError(err, `No customer ${userId}`);
      });
      return `Asked (request ${request.id}): a member of staff approves it on customer ${userId}'s page.`;
    },
  };
}

export const ACCOUNT_COMMANDS: OpsCommand[] = [
  asking(
    'account:freeze',
    'freeze',
    'ask to freeze a customer (sessions end, money calls refused) — staff approve',
  ),
  asking('account:unfreeze', 'unfreeze', 'ask to unfreeze a customer — staff approve'),
  asking(
    'account:factor-reset',
    'factorReset',
    "ask to reset a customer's second factor (sessions end, withdrawals held 24 h) — staff approve",
  ),
  asking(
    'account:password-reset',
    'passwordReset',
    "ask to reset a customer's login password (it stops working until they use forgot-password; sessions end, withdrawals held 24 h) — staff approve",
  ),
  {
    name: 'account:end-sessions',
    usage: 'account:end-sessions <userId> <reason…>',
    summary: 'end every session of a customer now (they sign in again; they are told)',
    mutates: true,
    async run(deps, [arg, ...words], actor) {
      const userId = idArg(arg, 'customer');
      const done = await endCustomerSessions(deps, operatorActor(deps, actor), userId, words.join(' ')).catch(
        (err: unknown) => {
          throw consoleError(err, `No customer ${userId}`);
        },
      );
      return `${done.sessionsEnded} session${done.sessionsEnded === 1 ? '' : 's'} of customer ${userId} ended.`;
    },
  },
];
