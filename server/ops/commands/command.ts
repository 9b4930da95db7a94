import type { Deps } from '../../deps';

/** One operator command. `mutates` commands are recorded in ops_log. */
export interface OpsCommand {
  name: string;
  usage: string;
  summary: string;
  mutates: boolean;
  run(deps: Deps, args: string[]): Promise<unknown>;
}
