import os from 'node:os';
import { OPS_MESSAGES } from '#shared/backoffice';
import type { Deps } from '../../deps';
import { type Actor, consoleActor } from '../../lib/audit-log';
import { ApiError } from '../../lib/errors';

/** The console's operator: OPS_OPERATOR, else the account running the command. */
export function operatorActor(deps: Deps, given?: Actor): Actor {
  if (given) return given;
  let account = 'unknown';
  try {
    account = os.userInfo().username;
  } catch {
    // No account name (a container's anonymous user): the audit log says so.
  }
  return consoleActor(deps.config.ops.operator || account);
}

/**
 * A refusal of a back-office function as the console says it: `missing` for a row that does not
 * exist or is not waiting (what the commands always said), else the refusal's English text.
 */
export function consoleError(err: unknown, missing: string): Error {
  if (!(err instanceof ApiError)) return err instanceof Error ? err : new Error(String(err));
  if (err.status === 404 || err.key === 'ops.errors.notWaiting') return new Error(missing);
  return new Error(OPS_MESSAGES[err.key] ?? err.key);
}
