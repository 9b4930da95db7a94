import type { Migration } from 'kysely';
import type { Dialect } from '../index';
import { migration001 } from './001_init';
import { migration010 } from './010_trading';
import { migration030 } from './030_wallet';
import { migration035 } from './035_hot_reads';

/**
 * Numbered migrations, run in order at start. Never edit a landed one: add the next number.
 * Numbering: 001–049 accounts, ledger and business tables; 050–059 market data.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_init': migration001(dialect),
    '030_wallet': migration030(),
    '010_trading': migration010(),
    '035_hot_reads': migration035(),
  };
}
