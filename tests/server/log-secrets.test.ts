import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, freePort, startInstance, stopAll } from '../support/process';
import { DIALECTS, startTestServer } from '../support/server';

/**
 * Secrets never reach the log: a real server at its most talkative (LOG_LEVEL=trace,
 * LOG_REQUESTS=1) goes through every call that carries one — sign-up, sign-in right and wrong,
 * setting and using the transaction password (right and wrong), adding and editing bank cards,
 * a withdrawal, changing and resetting the login password, refusals of all kinds — and the whole
 * of what it printed is searched for each password, transaction password, full card number and
 * session token. A fault's log line goes through the same redaction: on PostgreSQL a refused
 * insert's `detail` repeats the row (a card number) and is removed.
 */

const PASSWORDS = ['Log-secret-pass-1', 'Log-secret-pass-2', 'Log-secret-pass-3', 'Wrong-secret-pass-9'];
const CODES = ['908172', '561738'];
const CARDS = ['5012345678904411', '5012345678905521'];

/** Where `secret` occurs in `text` (digits only where no other digit touches them). */
function found(text: string, secret: string): boolean {
  if (!/^\d+$/.test(secret)) return text.includes(secret);
  return new RegExp(`(?<![0-9])${secret}(?![0-9])`).test(text);
}

describe('a whole run of the server logs no secret', () => {
  afterAll(async () => {
    await stopAll();
  });

  it('prints no password, transaction password, card number or token', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-logs-'));
    try {
      const server = await startInstance(
        'talkative',
        await freePort(),
        {
          DATABASE_URL: `sqlite:${path.join(dir, 'logs.db')}`,
          DIST_DIR: path.join(dir, 'no-dist'),
          UPLOADS_DIR: path.join(dir, 'uploads'),
          LOG_LEVEL: 'trace',
          LOG_REQUESTS: '1',
          SCRYPT_N: '1024',
          NEW_CARD_HOLD_MS: '0',
          SANDBOX_SETTLE_MS: '0',
        },
        { keepLog: true },
      );
      const phone = '7012345678';
      const tokens: string[] = [];
      const [p1, p2, p3, wrong] = PASSWORDS as [string, string, string, string];
      const [code, wrongCode] = CODES as [string, string];
      const ok = (res: { body: { msg: string } }, what: string) =>
        expect(res.body.msg, `${what}: ${JSON.stringify(res.body)}`).toBe('ok');

      ok(
        await call(server, 'register', { body: { user: phone, password: p1, code: 'BOURSE26' } }),
        'register',
      );
      const login = await call(server, 'login', { body: { user: phone, password: p1 } });
      ok(login, 'login');
      const token = login.body.data.token as string;
      tokens.push(token);
      expect((await call(server, 'login', { body: { user: phone, password: wrong } })).body.msg).toBe('no');
      ok(
        await call(server, 'passwordUp', {
          token,
          body: { type: 'transaction', is_first: true, fund_code_new: code },
        }),
        'transaction password',
      );
      const card = {
        bank: 'HDFC Bank',
        branch_bank: 'Andheri East',
        bank_user: 'Asha Rao',
        ifsc: 'HDFC0000123',
      };
      const added = await call(server, 'bankAdd', {
        token,
        body: { ...card, bank_card: CARDS[0], stock_password: code },
      });
      ok(added, 'card');
      expect(
        (
          await call(server, 'bankAdd', {
            token,
            body: { ...card, bank_card: CARDS[1], stock_password: wrongCode },
          })
        ).body.msg,
      ).toBe('no');
      ok(
        await call(server, 'bankEdit', {
          token,
          body: { ...card, id: added.body.data.id, bank_card: CARDS[1], stock_password: code },
        }),
        'card edit',
      );
      // The same number again: a refusal whose database error names the row.
      expect(
        (
          await call(server, 'bankAdd', {
            token,
            body: { ...card, bank_card: CARDS[1], stock_password: code },
          })
        ).body,
      ).toEqual({ msg: 'no', data: 'errors.bankCardExists' });
      ok(
        await call(server, 'recharge', {
          token,
          body: { count: 5000, method: 'bank' },
          headers: { 'idempotency-key': 'logs-recharge-1' },
        }),
        'recharge',
      );
      await call(server, 'withdraw', {
        token,
        body: { bank_id: added.body.data.id, count: 100, stock_password: code },
        headers: { 'idempotency-key': 'logs-withdraw-1' },
      });
      await call(server, 'withdraw', {
        token,
        body: { bank_id: added.body.data.id, count: 100, stock_password: wrongCode },
        headers: { 'idempotency-key': 'logs-withdraw-2' },
      });
      // A body the parser refuses, holding secrets: refused, and its bytes never logged.
      const raw = await fetch(`${server.base}/api/stock/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"user":"${phone}","password":"${p1}",`,
      });
      expect(raw.status).toBe(400);
      ok(
        await call(server, 'passwordUp', { token, body: { password: p1, password_new: p2 } }),
        'new password',
      );
      const again = await call(server, 'login', { body: { user: phone, password: p2 } });
      ok(again, 'login again');
      tokens.push(again.body.data.token as string);
      ok(await call(server, 'forget', { body: { user: phone, password: p2, new_password: p3 } }), 'reset');
      const last = await call(server, 'login', { body: { user: phone, password: p3 } });
      tokens.push(last.body.data.token as string);
      await call(server, 'userInfo', { token: last.body.data.token });
      await call(server, 'userInfo', { token: `${token}x` });
      await call(server, 'logout', { token: last.body.data.token });
      await new Promise((r) => setTimeout(r, 200));

      const log = server.log();
      // The run was logged in full: each request, each refusal with its id.
      expect(log).toContain('"msg":"incoming request"');
      expect(log).toMatch(/"reqId":"[0-9a-f]{8}-[0-9a-z]+".*"msg":"refused"/);
      const leaks = [...PASSWORDS, ...CODES, ...CARDS, ...tokens].filter((secret) => found(log, secret));
      expect(leaks).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  for (const { name, enabled } of DIALECTS) {
    it.runIf(enabled)(`redacts what a database error repeats of a row, on ${name}`, async () => {
      const lines: string[] = [];
      const s = await startTestServer(
        name,
        {},
        {
          logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
          setup(app) {
            // A fault of ours: a duplicate card inserted past the check that answers it.
            app.get(`${app.deps.config.apiBase}/test/duplicate-card`, async () => {
              const { db } = app.deps.database;
              const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
              const row = {
                user_id: user.id,
                bank: 'B',
                branch_bank: 'B',
                bank_card: CARDS[0]!,
                bank_user: 'A',
                ifsc: 'HDFC0000123',
                status: 1,
                created_at: 0,
                updated_at: 0,
              };
              await db.insertInto('bank_cards').values(row).execute();
              await db.insertInto('bank_cards').values(row).execute();
              return {};
            });
          },
        },
      );
      try {
        const res = await s.app.inject({ method: 'GET', url: `${s.config.apiBase}/test/duplicate-card` });
        expect(res.statusCode).toBe(500);
        const fault = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
        expect(fault?.reqId).toBe(res.headers['x-request-id']);
        if (name === 'postgres') expect(fault.err.detail).toBe('[redacted]');
        expect(lines.filter((l) => found(l, CARDS[0]!))).toEqual([]);
      } finally {
        await s.close();
      }
    });
  }
});
