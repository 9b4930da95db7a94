import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_STATUS } from '#shared/status';
import { createUser } from '../../server/account/users';
import { phoneOf, readQuery } from '../../server/backoffice/customer-search';
import { loadConfig } from '../../server/config';
import { consoleActor } from '../../server/lib/audit-log';
import { COMMANDS } from '../../server/ops/commands/index';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { enrolledMember, type Member, opsCall } from '../support/staff';
import { credit, expectLedgerConsistent, idem } from '../support/trading';
import { addCard, ensureTradeCode, TRADE_CODE } from '../support/wallet';

/**
 * The desk's customer search, list and CSV exports (server/backoffice/customer-search.ts,
 * exports.ts) on both databases: each form a person types finds the customer and says how (a
 * phone whole, spaced or +91; its last four; a card whole or its last four; a PAN however spaced;
 * any word of a name), surest first; nothing found is an empty list, malformed input a 400; the
 * list pages newest first and filters by KYC status; the exports carry what the pages show, with
 * reasons in words and every formula defused. The ledger audit runs after.
 */

describe('reading a search', () => {
  it('reads a phone in its usual forms, and nothing from punctuation alone', () => {
    for (const typed of ['9876501234', '98765 01234', '+91 98765 01234', '+91-98765-01234', '09876501234'])
      expect(phoneOf(readQuery(typed)!.digits!), typed).toBe('9876501234');
    expect(readQuery('  %_ ')).toBeNull();
    expect(readQuery('7')).toBeNull();
    expect(readQuery('abcde 1234 f')!.code).toBe('ABCDE1234F');
    // An identifier is not looked for among names (that would scan them all).
    expect(readQuery('abcde 1234 f')!.words).toEqual([]);
    expect(readQuery('Meera  Kumar')!.words).toEqual(['meera', 'kumar']);
  });
});

describe.each(DIALECTS)('customer search, list and exports on $name', ({ name, enabled }) => {
  let s: TestServer;
  let support: Member;
  const people = {} as Record<'asha' | 'ravi' | 'meera', { id: number; token: string }>;
  const CARD = '5012345678901234';

  async function kyc(userId: number, realName: string, idNumber: string, status: number) {
    const at = s.clock.now();
    await s.deps.database.db
      .insertInto('kyc')
      .values({
        user_id: userId,
        real_name: realName,
        id_type: 'idCard',
        id_number: idNumber,
        id_number_img: 'a',
        id_number_img_two: 'b',
        status,
        note: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  const search = async (q: string) => {
    const r = await opsCall(s, 'customerSearch', support.token, { q });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as Array<{ id: number; matched: string; name: string | null }>;
  };

  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    support = await enrolledMember(s, 'support');
    // Asha: phone ending 1234. Ravi: a card ending 1234 (phone elsewhere). Meera: a PAN, three names.
    people.asha = await s.signUp('9876501234');
    people.ravi = await s.signUp('9123400077');
    people.meera = await s.signUp('9000012345');
    await credit(s, people.ravi.id, 5_000_000);
    await addCard(s, people.ravi.token, CARD);
    await kyc(people.asha.id, 'Asha Rao', 'XYZPQ9876K', KYC_STATUS.approved);
    await kyc(people.meera.id, 'Meera Lakshmi Kumar', 'ABCDE1234F', KYC_STATUS.underReview);
  });
  afterAll(async () => {
    if (s) await expectLedgerConsistent(s);
    await s?.close();
  });

  it.runIf(enabled)('finds a phone whole, spaced and in its +91 forms', async () => {
    for (const q of ['9876501234', '98765 01234', '+91 98765 01234', '+91-98765-01234', '0091 9876501234']) {
      const hits = await search(q);
      expect(
        hits.map((h) => [h.id, h.matched]),
        q,
      ).toEqual([[people.asha.id, 'phone']]);
    }
  });

  it.runIf(enabled)("finds a phone's and a card's last four, the phone's first", async () => {
    const hits = await search('1234');
    // The seed's demo customer has a card ending 1234 too: the phone's end comes first.
    expect(hits[0]).toMatchObject({ id: people.asha.id, matched: 'phoneEnd' });
    expect(hits.find((h) => h.id === people.ravi.id)?.matched).toBe('cardEnd');
    expect(hits.slice(1).every((h) => h.matched === 'cardEnd')).toBe(true);
    // Ravi's phone starts 9123: its start, below whole identifiers.
    expect((await search('91234')).map((h) => [h.id, h.matched])).toEqual([[people.ravi.id, 'phoneStart']]);
  });

  it.runIf(enabled)('finds a card number whole however it is spaced', async () => {
    for (const q of [CARD, '5012 3456 7890 1234', '5012-3456-7890-1234'])
      expect(
        (await search(q)).map((h) => [h.id, h.matched]),
        q,
      ).toEqual([[people.ravi.id, 'card']]);
  });

  it.runIf(enabled)('finds a PAN or ID number in any case and spacing', async () => {
    for (const q of ['ABCDE1234F', 'abcde1234f', 'ABCDE 1234 F'])
      expect(
        (await search(q)).map((h) => [h.id, h.matched]),
        q,
      ).toEqual([[people.meera.id, 'idNumber']]);
  });

  it.runIf(enabled)('finds any word of a name, whole words first', async () => {
    expect((await search('kumar')).map((h) => [h.id, h.matched])).toEqual([[people.meera.id, 'name']]);
    expect((await search('Lakshmi Kumar')).map((h) => [h.id, h.matched])).toEqual([
      [people.meera.id, 'name'],
    ]);
    expect((await search('laksh')).map((h) => [h.id, h.matched])).toEqual([[people.meera.id, 'nameStart']]);
    expect((await search('akshm')).map((h) => [h.id, h.matched])).toEqual([[people.meera.id, 'namePart']]);
    // A card holder's name finds its customer too (addCard's holder is Asha Rao: Ravi's card).
    const rao = await search('Rao');
    expect(rao.map((h) => h.id).sort()).toEqual([people.asha.id, people.ravi.id].sort());
    expect(rao.every((h) => h.matched === 'name')).toBe(true);
  });

  it.runIf(enabled)('finds an account number in any case', async () => {
    const { no } = await s.deps.database.db
      .selectFrom('users')
      .select('no')
      .where('id', '=', people.meera.id)
      .executeTakeFirstOrThrow();
    for (const q of [no, no.toLowerCase()])
      expect(
        (await search(q)).map((h) => [h.id, h.matched]),
        q,
      ).toEqual([[people.meera.id, 'account']]);
  });

  it.runIf(enabled)('finds nothing for what matches no one', async () => {
    for (const q of ['0000', '5555 6666 7777 8888', 'QQQQQ0000Q', 'Zzyzx', 'B00000000'])
      expect(await search(q), q).toEqual([]);
  });

  it.runIf(enabled)('answers malformed input with a 400 or nothing, never a 500', async () => {
    for (const query of [{ q: 'x'.repeat(81) }, {}, { q: ['1', '2'] }, { q: '\u0000\u0007' }]) {
      const r = await opsCall(s, 'customerSearch', support.token, query);
      expect(r.status, JSON.stringify(query)).toBe(400);
    }
    for (const q of ['', ' ', '%', '%%__\\', "'; drop table users; --", '🙂🙂', '+', '1'])
      expect(await search(q), JSON.stringify(q)).toEqual([]);
    // The users are still there.
    expect(await search('9876501234')).toHaveLength(1);
  });

  it.runIf(enabled)('lists customers newest first, 50 a page, filtered by KYC status', async () => {
    const made: number[] = [];
    for (let n = 0; n < 60; n++)
      made.push(
        await createUser(s.deps.database.db, {
          phone: `80000${String(n).padStart(5, '0')}`,
          passwordHash: 'x',
          at: s.clock.now(),
        }),
      );
    for (const id of made.slice(0, 3)) await kyc(id, `Listed ${id}`, `LIST${id}`, KYC_STATUS.rejected);
    const list = async (input: Record<string, unknown>) => {
      const r = await opsCall(s, 'customerList', support.token, input);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data as { rows: Array<{ id: number; kycStatus: number }>; next: number | null };
    };
    const first = await list({});
    expect(first.rows).toHaveLength(50);
    expect(first.rows.slice(0, 60).map((r) => r.id)).toEqual([...made].reverse().slice(0, 50));
    expect(first.next).toBe(first.rows[49]!.id);
    const second = await list({ before: first.next });
    const all = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    // Every customer once over the pages (the seed's, the three above, these 60).
    let next = second.next;
    while (next !== null) {
      const page = await list({ before: next });
      all.push(...page.rows.map((r) => r.id));
      next = page.next;
    }
    const total = await s.deps.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(all.length).toBe(Number(total.n));
    const rejected = await list({ kyc: KYC_STATUS.rejected });
    expect(rejected.rows.map((r) => r.id)).toEqual(made.slice(0, 3).reverse());
    expect(rejected.next).toBeNull();
    const approved = await list({ kyc: KYC_STATUS.approved });
    expect(approved.rows.map((r) => r.id)).toContain(people.asha.id);
    expect(approved.rows.every((r) => r.kycStatus === KYC_STATUS.approved)).toBe(true);
    const none = await list({ kyc: KYC_STATUS.none });
    expect(none.rows.some((r) => made.slice(0, 3).includes(r.id) || r.id === people.asha.id)).toBe(false);
    expect(none.rows.map((r) => r.id)).toContain(made[59]);
    for (const bad of [{ kyc: 4 }, { kyc: 'x' }, { before: 0 }, { before: -1 }, { before: 'abc' }]) {
      const r = await opsCall(s, 'customerList', support.token, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });

  /** A CSV's rows as cells (every cell is quoted by csvLine). */
  const cells = (body: string) =>
    body
      .trim()
      .split('\r\n')
      .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));
  const download = async (
    name: 'statementCsv' | 'payoutsCsv' | 'queuesCsv',
    input: Record<string, unknown> = {},
  ) => {
    const r = await opsCall(s, name, support.token, input);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+\.csv"$/);
    expect(r.headers['cache-control']).toBe('no-store');
    return cells(r.text);
  };

  it.runIf(enabled)('exports a statement, the payouts and the queue as CSV, formulas defused', async () => {
    // A card holder's name and a real name a spreadsheet would run.
    const card = await s.deps.database.db
      .selectFrom('bank_cards')
      .select('id')
      .where('user_id', '=', people.ravi.id)
      .executeTakeFirstOrThrow();
    await s.deps.database.db
      .updateTable('bank_cards')
      .set({ bank_user: '=HYPERLINK("http://evil.example","Ravi")' })
      .where('id', '=', card.id)
      .execute();
    const odd = await s.signUp('9555500001');
    await kyc(odd.id, '@SUM(1+1)*cmd|x', 'ODD123456', KYC_STATUS.underReview);
    await ensureTradeCode(s, people.ravi.token);
    const w = await s.call('withdraw', {
      token: people.ravi.token,
      body: { bank_id: card.id, count: 12_345, stock_password: TRADE_CODE },
      headers: idem(),
    });
    expect(w.body.msg, JSON.stringify(w.body)).toBe('ok');

    const statement = await download('statementCsv', { userId: people.ravi.id });
    expect(statement[0]).toEqual([
      'posting',
      'at',
      'reason',
      'reason_code',
      'debit',
      'credit',
      'balance',
      'reference',
      'staff_action',
    ]);
    expect(statement.slice(1).map((r) => [r[2], r[3], r[4], r[5], r[6]])).toEqual([
      ['Recharge', 'recharge', '', '50000.00', '50000.00'],
      ['Withdrawal', 'withdraw', '12345.00', '', '37655.00'],
    ]);
    // A window with nothing in it: the header alone.
    expect(await download('statementCsv', { userId: people.ravi.id, to: 1 })).toHaveLength(1);

    const payouts = await download('payoutsCsv');
    const row = payouts.find((r) => r[2] === String(people.ravi.id))!;
    expect(row[5]).toBe('12345.00');
    expect(row[10]).toBe(`'=HYPERLINK("http://evil.example","Ravi")`);
    expect([row[6], row[7]]).toEqual(['waiting', '']);

    const queue = await download('queuesCsv');
    expect(queue[0]![0]).toBe('type');
    const review = queue.find((r) => r[0] === 'kyc' && r[1] === String(odd.id))!;
    expect(review[3]).toBe("'@SUM(1+1)*cmd|x");
    // No cell of any export starts as a formula would.
    for (const cell of [...statement, ...payouts, ...queue].flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    for (const bad of [{}, { userId: 0 }, { userId: 'x' }, { userId: people.ravi.id, from: -5 }]) {
      const r = await opsCall(s, 'statementCsv', support.token, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await opsCall(s, 'statementCsv', support.token, { userId: 999_999 })).status).toBe(404);
  });

  it.runIf(enabled)(
    "staff:add prints the link on the site's public address, not the console's port",
    async () => {
      const addAs = async (env: Record<string, string>, login: string) => {
        const ops = loadConfig(env).ops;
        const deps = {
          ...s.deps,
          config: { ...s.deps.config, port: 8080, ops: { ...s.deps.config.ops, publicUrl: ops.publicUrl } },
        };
        const out = await COMMANDS.find((c) => c.name === 'staff:add')!.run(
          deps,
          [login, '--role', 'support'],
          consoleActor('test'),
        );
        return /(\S+)\/ops\/enrol#/.exec(String(out))?.[1];
      };
      expect(await addAs({ PORT: '8080', WEBAUTHN_ORIGINS: 'https://bourse.example' }, 'linkone')).toBe(
        'https://bourse.example',
      );
      expect(
        await addAs(
          {
            PORT: '8080',
            WEBAUTHN_ORIGINS: 'https://bourse.example',
            OPS_PUBLIC_URL: 'https://ops.bourse.example',
          },
          'linktwo',
        ),
      ).toBe('https://ops.bourse.example');
    },
  );
});
