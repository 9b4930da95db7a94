import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { fromMinor } from '../../../src/shared/money';
import { withTx } from '../../db/index';
import type { DB } from '../../db/schema';
import type { Deps } from '../../deps';
import { maskTail } from '../../lib/mask';
import { newsCache } from '../../lib/news-cache';
import { plainText, sanitizeArticle } from '../../lib/sanitize';
import {
  completeRecharge,
  disburseLoan,
  failRecharge,
  payWithdrawal,
  refundWithdrawal,
  rejectLoan,
} from '../../lib/settlement';
import type { OpsCommand } from './index';

/**
 * The operator's side of the wallet, KYC, news and chat (DESIGN rule 4): every status change a
 * human decides. Each command checks the row is in the state it acts on, so a command repeated or
 * racing the sandbox jobs changes nothing twice; the CLI writes each mutating command to ops_log.
 */

function id(arg: string | undefined, what: string): number {
  if (!arg || !/^\d{1,12}$/.test(arg) || Number(arg) < 1)
    throw new Error(`Expected a ${what} id, got: ${arg ?? 'nothing'}`);
  return Number(arg);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One guarded money transition in its own transaction; explains itself when nothing changed. */
function transition(
  name: string,
  usage: string,
  summary: string,
  what: string,
  apply: (trx: Kysely<DB>, id: number, now: number) => Promise<boolean>,
  done: string,
): OpsCommand {
  return {
    name,
    usage,
    summary,
    mutates: true,
    async run(deps, [arg]) {
      const rowId = id(arg, what);
      const changed = await withTx(deps.database, (trx) => apply(trx, rowId, deps.clock.now()));
      if (!changed) throw new Error(`${what} ${rowId} does not exist or is not waiting for this decision`);
      return `${what} ${rowId} ${done}`;
    },
  };
}

async function setKyc(deps: Deps, userId: number, status: 2 | 3, note: string | null): Promise<boolean> {
  const r = await deps.database.db
    .updateTable('kyc')
    .set({ status, note, updated_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('status', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** `--name value` options after the positional arguments. */
function options(args: string[]): { positional: string[]; named: Record<string, string> } {
  const positional: string[] = [];
  const named: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith('--') && a.length > 2) {
      const value = args[i + 1];
      if (value === undefined) throw new Error(`${a} needs a value`);
      named[a.slice(2)] = value;
      i += 1;
    } else positional.push(a);
  }
  return { positional, named };
}

async function readSource(source: string): Promise<string> {
  if (source !== '-') return fs.readFile(source, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Publishes an article: the HTML is sanitised before it is stored and never touched again. */
export async function publishNews(
  deps: Deps,
  article: { title: string; subhead: string; html: string; img?: string | null },
): Promise<number> {
  const title = plainText(article.title);
  const subhead = plainText(article.subhead);
  const content = sanitizeArticle(article.html);
  if (!title || title.length > 200) throw new Error('A title of 1 to 200 characters is required');
  if (subhead.length > 400) throw new Error('The subhead is longer than 400 characters');
  if (!content.trim()) throw new Error('The article has no content left after sanitising');
  const img = article.img ?? null;
  // Article images are the app's own files or https addresses, never script or data URLs.
  if (img !== null && !/^(\/[\w./-]+|https:\/\/[^\s"'<>]+)$/.test(img))
    throw new Error(`Bad image address: ${img}`);
  const now = deps.clock.now();
  const row = await deps.database.db
    .insertInto('news')
    .values({ title, subhead, img, content, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The server in this process shows it at once; one in another process within its version check.
  newsCache(deps.database).invalidate();
  return row.id;
}

export async function replyToChat(deps: Deps, userId: number, text: string): Promise<number> {
  const body = text.trim();
  if (!body || body.length > 2000) throw new Error('A reply of 1 to 2000 characters is required');
  const user = await deps.database.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new Error(`No user ${userId}`);
  const row = await deps.database.db
    .insertInto('messages')
    .values({
      user_id: userId,
      sender: 'agent',
      body,
      client_id: null,
      read_at: null,
      created_at: deps.clock.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

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
      .where('kyc.status', '=', 1)
      .orderBy('kyc.updated_at')
      .execute(),
    db
      .selectFrom('loans')
      .innerJoin('users', 'users.id', 'loans.user_id')
      .select([
        'loans.id',
        'loans.user_id',
        'users.phone',
        'users.credit_score',
        'loans.count',
        'loans.created_at',
      ])
      .where('loans.state', '=', 1)
      .orderBy('loans.id')
      .execute(),
    db
      .selectFrom('withdrawals')
      .innerJoin('bank_cards', 'bank_cards.id', 'withdrawals.bank_id')
      .select([
        'withdrawals.id',
        'withdrawals.user_id',
        'withdrawals.count',
        'bank_cards.bank',
        'bank_cards.bank_card',
        'bank_cards.ifsc',
        'withdrawals.created_at',
        'withdrawals.settle_at',
      ])
      .where('withdrawals.status', '=', 'n')
      .orderBy('withdrawals.id')
      .execute(),
    db
      .selectFrom('recharges')
      .select(['id', 'user_id', 'count', 'method', 'created_at', 'settle_at'])
      .where('status', '=', 1)
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
      amount: fromMinor(l.count),
      applied: iso(l.created_at),
    })),
    withdrawals: withdrawals.map((w) => ({
      id: w.id,
      userId: w.user_id,
      amount: fromMinor(w.count),
      bank: w.bank,
      card: maskTail(w.bank_card),
      ifsc: w.ifsc,
      asked: iso(w.created_at),
      sandboxSettles: iso(w.settle_at),
    })),
    recharges: recharges.map((r) => ({
      id: r.id,
      userId: r.user_id,
      amount: fromMinor(r.count),
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

export const WALLET_COMMANDS: OpsCommand[] = [
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
    async run(deps, [arg]) {
      const userId = id(arg, 'user');
      if (!(await setKyc(deps, userId, 2, null)))
        throw new Error(`User ${userId} has no verification under review`);
      return `Verification of user ${userId} approved`;
    },
  },
  {
    name: 'kyc:reject',
    usage: 'kyc:reject <userId> [note]',
    summary: 'reject a verification under review (the user may submit again)',
    mutates: true,
    async run(deps, [arg, ...note]) {
      const userId = id(arg, 'user');
      const text = plainText(note.join(' ')).slice(0, 500) || null;
      if (!(await setKyc(deps, userId, 3, text)))
        throw new Error(`User ${userId} has no verification under review`);
      return `Verification of user ${userId} rejected`;
    },
  },
  transition(
    'loan:approve',
    'loan:approve <loanId>',
    'approve a loan and disburse it (borrow)',
    'loan',
    disburseLoan,
    'approved and disbursed',
  ),
  transition(
    'loan:reject',
    'loan:reject <loanId>',
    'reject a loan application',
    'loan',
    rejectLoan,
    'rejected',
  ),
  transition(
    'withdraw:pay',
    'withdraw:pay <id>',
    'mark a withdrawal paid out',
    'withdrawal',
    payWithdrawal,
    'paid',
  ),
  transition(
    'withdraw:reject',
    'withdraw:reject <id>',
    'fail a withdrawal and refund it (withdrawRefund)',
    'withdrawal',
    refundWithdrawal,
    'rejected and refunded',
  ),
  transition(
    'recharge:confirm',
    'recharge:confirm <id>',
    'confirm a recharge was received and credit it',
    'recharge',
    completeRecharge,
    'confirmed and credited',
  ),
  transition(
    'recharge:fail',
    'recharge:fail <id>',
    'mark a recharge failed (nothing is credited)',
    'recharge',
    failRecharge,
    'failed',
  ),
  {
    name: 'news:publish',
    usage: 'news:publish <file|-> --title T --subhead S',
    summary: 'publish an article, sanitised when stored; [--img /path-or-https-url]',
    mutates: true,
    async run(deps, args) {
      const { positional, named } = options(args);
      const [source] = positional;
      if (!source) throw new Error('Give an HTML file, or - to read standard input');
      const newsId = await publishNews(deps, {
        title: named.title ?? '',
        subhead: named.subhead ?? '',
        html: await readSource(source),
        img: named.img ?? null,
      });
      return `Article ${newsId} published`;
    },
  },
  {
    name: 'chat:reply',
    usage: 'chat:reply <userId> <text>',
    summary: "answer a user's customer-service chat",
    mutates: true,
    async run(deps, [arg, ...words]) {
      const userId = id(arg, 'user');
      const messageId = await replyToChat(deps, userId, words.join(' '));
      return `Reply ${messageId} sent to user ${userId}`;
    },
  },
];
