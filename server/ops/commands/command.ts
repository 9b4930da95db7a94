import type { Deps } from '../../deps';
import type { Actor } from '../../lib/audit-log';

/**
 * One operator command. `mutates` commands are recorded in ops_log; the decisions among them run
 * the back office's audited functions with `actor`, the console's operator (OPS_OPERATOR, else the
 * account running the command: `operatorActor`), so the audit log names them.
 */
export interface OpsCommand {
  name: string;
  usage: string;
  summary: string;
  mutates: boolean;
  run(deps: Deps, args: string[], actor?: Actor): Promise<unknown>;
}
