import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELCOME } from '../../server/content/chat';
import { publishNews } from '../../server/content/news';
import { seed } from '../../server/db/seed';
import { SEED_ARTICLES } from '../../server/db/seed-news';
import { pending } from '../../server/ops/commands/review';
import { program } from '../support/process';
import { DIALECTS, freshPhone, ops, startTestServer, TEST_TMP, type TestServer } from '../support/server';
import { enrolledMember, opsCall } from '../support/staff';
import { addCard, fund, TRADE_CODE, upload } from '../support/wallet';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src="x" onerror="alert(2)">',
  '<a href="javascript:alert(3)">click</a>',
  '<svg><script>alert(4)</script></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<p style="background:url(javascript:alert(5))" onclick="alert(6)">styled</p>',
  '<math><mi><style><img src=x onerror=alert(7)></style></mi></math>',
  '<form action="https://evil.example"><input name="pin"></form>',
].join('\n');

async function demoToken(s: TestServer): Promise<{ token: string; id: number }> {
  const login = await s.call('login', {
    body: { user: '9876543210', password: 'demo1234' },
  });
  return { token: login.body.data.token, id: login.body.data.id };
}

describe.each(DIALECTS)('content on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name);
  });
  afterAll(async () => {
    await s?.close();
  });

  describe.skipIf(!enabled)('news', () => {
    it('lists the seeded articles newest first with the total, without their bodies, to anyone', async () => {
      const res = await s.call('newsList');
      expect(res.body.msg).toBe('ok');
      expect(res.body.data.count).toBe(SEED_ARTICLES.length);
      expect(res.body.data.rows.map((r: { title: string }) => r.title)).toEqual(
        SEED_ARTICLES.map((a) => a.title),
      );
      expect(res.body.data.rows[0]).not.toHaveProperty('content');
      expect(res.body.data.rows[0].img).toBe('/news/nifty-recovery.jpg');
      expect(fs.existsSync(path.resolve('public/news/nifty-recovery.jpg'))).toBe(true);
    });

    it('pages with the allowed sizes only', async () => {
      for (let i = 0; i < 8; i++) {
        await publishNews(s.deps, {
          title: `Market note ${i}`,
          subhead: 'Daily wrap',
          html: `<p>Note ${i}</p>`,
        });
      }
      const total = SEED_ARTICLES.length + 8;
      const first = await s.call('newsList', { query: { page: 1, limit: 10 } });
      expect(first.body.data.rows).toHaveLength(10);
      const second = await s.call('newsList', { query: { page: 2, limit: 10 } });
      expect(second.body.data.rows).toHaveLength(total - 10);
      expect(second.body.data.count).toBe(total);
      const twenty = await s.call('newsList', { query: { limit: 20 } });
      expect(twenty.body.data.rows).toHaveLength(total);
      for (const limit of [15, 0, 100]) {
        const bad = await s.call('newsList', { query: { limit } });
        expect(bad.body, String(limit)).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      }
    });

    it('serves an article by id, and notFound for an unknown one', async () => {
      const list = await s.call('newsList');
      const first = list.body.data.rows.find((r: { title: string }) => r.title === SEED_ARTICLES[0]!.title);
      const article = await s.call('newsArticle', { query: { id: first.id } });
      expect(article.body.data).toMatchObject({ id: first.id, title: SEED_ARTICLES[0]!.title });
      expect(article.body.data.content).toContain('<h2>What moved</h2>');
      const missing = await s.call('newsArticle', { query: { id: 999999 } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ msg: 'no', data: 'errors.notFound' });
      const bad = await s.call('newsArticle', { query: { id: 'abc' } });
      expect(bad.body.data).toBe('errors.invalidInput');
    });

    it('sanitises article HTML when it is stored: no script or handler survives', async () => {
      const id = await publishNews(s.deps, {
        title: '  Quarterly\nresults  ',
        subhead: 'Read carefully',
        html: `<h2>Results</h2><p>Revenue <strong>rose</strong>.</p><a href="https://example.com/report">Report</a>\n${PAYLOADS}`,
      });
      const article = (await s.call('newsArticle', { query: { id } })).body.data;
      const html: string = article.content;
      expect(article.title).toBe('Quarterly results');
      for (const banned of [
        '<script',
        'onerror',
        'onclick',
        'javascript:',
        '<iframe',
        '<form',
        '<input',
        'style=',
        '<svg',
        '<style',
      ]) {
        expect(html.toLowerCase(), banned).not.toContain(banned);
      }
      expect(html).toContain('<h2>Results</h2><p>Revenue <strong>rose</strong>.</p>');
      expect(html).toContain(
        '<a href="https://example.com/report" target="_blank" rel="noopener noreferrer nofollow">Report</a>',
      );
      expect(html).toContain('<p>styled</p>');
    });

    it('publishes from the operator command with its options, sanitised', async () => {
      const file = path.join(os.tmpdir(), `bourse-news-${process.pid}.html`);
      fs.writeFileSync(file, `<p>Dividend season</p>${PAYLOADS}`);
      try {
        const out = await ops(
          s,
          'news:publish',
          file,
          '--title',
          'Dividend season',
          '--subhead',
          'Who pays when',
        );
        const newsId = Number(String(out).match(/Article (\d+)/)?.[1]);
        const article = (await s.call('newsArticle', { query: { id: newsId } })).body.data;
        expect(article).toMatchObject({ title: 'Dividend season', subhead: 'Who pays when', img: null });
        expect(article.content).not.toMatch(/script|onerror|javascript:/i);
        await expect(ops(s, 'news:publish', file, '--title')).rejects.toThrow(/needs a value/);
        await expect(ops(s, 'news:publish', file, '--subhead', 'x')).rejects.toThrow(/title/);
        await expect(
          ops(s, 'news:publish', file, '--title', 'T', '--img', 'javascript:alert(1)'),
        ).rejects.toThrow(/Bad image/);
      } finally {
        fs.rmSync(file, { force: true });
      }
    });

    it('finding 10: a news image is a path on this site, normalised, from the console and the back office alike', async () => {
      const file = path.join(TEST_TMP, `bourse-news-img-${process.pid}.html`);
      fs.writeFileSync(file, '<p>Results day</p>');
      const staff = await enrolledMember(s, 'support');
      const draft = (img: string) => ({
        title: 'Results day',
        subhead: 'Who beat',
        html: '<p>Results</p>',
        img,
      });
      try {
        const refused = [
          '//evil.example/x.png',
          '/ops/../..',
          '/ops/../../x.png',
          'https://evil.example/x.png',
          'http://evil.example/x.png',
          '/\\evil.example/x.png',
          '/news/%2e%2e/%2e%2e/x.png',
          '/news//x.png',
          'javascript:alert(1)',
          'data:image/png;base64,AAAA',
          '/news/x.png?at=1',
          '/news/',
          'news/x.png',
        ];
        for (const img of refused) {
          await expect(ops(s, 'news:publish', file, '--title', 'T', '--img', img), img).rejects.toThrow(
            /Bad image/,
          );
          const desk = await opsCall(s, 'newsPublish', staff.token, draft(img));
          expect(desk.status, img).toBe(400);
          expect(desk.body.data, img).toBe('ops.errors.newsImage');
        }
        // A path on this site is kept in its normal form.
        const out = await ops(
          s,
          'news:publish',
          file,
          '--title',
          'T',
          '--img',
          '/news/./2026/../nifty-recovery.jpg',
        );
        const newsId = Number(String(out).match(/Article (\d+)/)?.[1]);
        expect((await s.call('newsArticle', { query: { id: newsId } })).body.data.img).toBe(
          '/news/nifty-recovery.jpg',
        );
        const published = await opsCall(s, 'newsPublish', staff.token, draft('/news/results.webp'));
        expect(published.body.msg, published.text).toBe('ok');
        const row = await s.call('newsArticle', { query: { id: published.body.data.publishedId } });
        expect(row.body.data.img).toBe('/news/results.webp');
      } finally {
        fs.rmSync(file, { force: true });
      }
    });

    it('seeds idempotently: a second run adds no article, message or card', async () => {
      const { db } = s.deps.database;
      const countOf = async (table: 'news' | 'messages' | 'bank_cards') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = [await countOf('news'), await countOf('messages'), await countOf('bank_cards')];
      await seed(s.deps);
      expect([await countOf('news'), await countOf('messages'), await countOf('bank_cards')]).toEqual(before);
    });
  });

  describe.skipIf(!enabled)('customer service', () => {
    it('points kefu at the in-app chat route (SPEC: "data: URL or route", a string)', async () => {
      const { token } = await s.signUp();
      expect((await s.call('kefu', { token })).body).toEqual({
        msg: 'ok',
        data: '/customer-service',
      });
    });

    it('greets the demo user, and the demo user has a card to withdraw to', async () => {
      const { token } = await demoToken(s);
      const list = await s.call('messageList', { token });
      expect(list.body.data[0]).toMatchObject({ sender: 'agent', body: WELCOME });
      const cards = await s.call('bankList', { token });
      expect(cards.body.data).toEqual([expect.objectContaining({ bank: 'State Bank of India', status: 1 })]);
      expect(cards.body.data[0].bank_card).toMatch(/^\*+1234$/);
    });

    it('welcomes each account once, at registration, without an unread badge', async () => {
      const phone = freshPhone();
      const { token } = await s.signUp(phone);
      for (let i = 0; i < 2; i++) {
        await s.call('login', { body: { user: phone, password: 'secret123' } });
      }
      await seed(s.deps);
      const list = await s.call('messageList', { token });
      expect(list.body.data).toEqual([
        expect.objectContaining({
          sender: 'agent',
          body: WELCOME,
          read_at: expect.any(Number),
          // Ours, not an operator's: the app shows it in the user's language.
          text_key: 'chat.welcome',
        }),
      ]);
      expect((await s.call('unreadCount', { token })).body.data).toEqual({ unread_count: 0 });
      const demo = await demoToken(s);
      const demoList = await s.call('messageList', { token: demo.token });
      expect(demoList.body.data.filter((m: { body: string }) => m.body === WELCOME)).toHaveLength(1);
    });

    it('sends, dedupes a resend by client_id, counts unread replies and clears them', async () => {
      const { token, id } = await s.signUp();
      const sent = await s.call('messageSend', {
        token,
        body: { message: '  How do I withdraw?  ', client_id: 'c-1' },
      });
      expect(sent.body.data).toMatchObject({
        sender: 'user',
        body: 'How do I withdraw?',
        client_id: 'c-1',
        read_at: null,
      });
      const resent = await s.call('messageSend', {
        token,
        body: { message: 'How do I withdraw?', client_id: 'c-1' },
      });
      expect(resent.body.data.id).toBe(sent.body.data.id);
      const racing = await Promise.all(
        [1, 2, 3].map(() =>
          s.call('messageSend', { token, body: { message: 'Are you there?', client_id: 'c-2' } }),
        ),
      );
      expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
      await s.call('messageSend', { token, body: { message: 'No id, no dedupe' } });
      await s.call('messageSend', { token, body: { message: 'No id, no dedupe' } });

      expect((await s.call('unreadCount', { token })).body.data).toEqual({ unread_count: 0 });
      const waiting = await pending(s.deps);
      expect(waiting.chats).toEqual(
        expect.arrayContaining([expect.objectContaining({ userId: id, lastMessage: 'No id, no dedupe' })]),
      );
      await ops(s, 'chat:reply', String(id), 'Open', 'Withdraw', 'from', 'Account.');
      await ops(s, 'chat:reply', String(id), 'Anything else?');
      expect((await s.call('unreadCount', { token })).body.data).toEqual({ unread_count: 2 });
      expect((await pending(s.deps)).chats.some((c) => c.userId === id)).toBe(false);

      const list = await s.call('messageList', { token });
      expect(list.body.data.map((m: { sender: string; body: string }) => [m.sender, m.body])).toEqual([
        ['agent', WELCOME],
        ['user', 'How do I withdraw?'],
        ['user', 'Are you there?'],
        ['user', 'No id, no dedupe'],
        ['user', 'No id, no dedupe'],
        ['agent', 'Open Withdraw from Account.'],
        ['agent', 'Anything else?'],
      ]);
      // Only the welcome is a text of ours; a user's message and an operator's reply are their words.
      expect(
        list.body.data.filter((m: { text_key?: string }) => m.text_key).map((m: { id: number }) => m.id),
      ).toEqual([list.body.data[0].id]);
      expect((await s.call('messageRead', { token, body: {} })).body.msg).toBe('ok');
      expect((await s.call('unreadCount', { token })).body.data).toEqual({ unread_count: 0 });
    });

    it('keeps chats apart and validates messages', async () => {
      const a = await s.signUp();
      const b = await s.signUp();
      await s.call('messageSend', {
        token: a.token,
        body: { message: 'private to A', client_id: 'same-id' },
      });
      const bSame = await s.call('messageSend', {
        token: b.token,
        body: { message: 'from B', client_id: 'same-id' },
      });
      expect(bSame.body.data.body).toBe('from B');
      await ops(s, 'chat:reply', String(a.id), 'only for A');
      expect((await s.call('unreadCount', { token: b.token })).body.data.unread_count).toBe(0);
      const bList = await s.call('messageList', { token: b.token });
      expect(bList.body.data.map((m: { body: string }) => m.body)).toEqual([WELCOME, 'from B']);

      expect((await s.call('messageSend', { token: a.token, body: { message: '   ' } })).body.data).toBe(
        'errors.messageEmpty',
      );
      expect((await s.call('messageSend', { token: a.token, body: { message: '' } })).body.data).toBe(
        'errors.invalidInput',
      );
      expect(
        (await s.call('messageSend', { token: a.token, body: { message: 'x'.repeat(2001) } })).body.data,
      ).toBe('errors.invalidInput');
      expect(
        (await s.call('messageSend', { token: a.token, body: { message: 'hi', sender: 'agent' } })).body.data,
      ).toBe('errors.invalidInput');
      const visitor = await s.call('unreadCount');
      expect(visitor.body).toEqual({ msg: 'logout', data: 'errors.sessionExpired' });
      await expect(ops(s, 'chat:reply', '999999', 'hello')).rejects.toThrow(/No user/);
    });

    it('limits how fast one user can send', async () => {
      const { token } = await s.signUp();
      const answers = [];
      for (let i = 0; i < 21; i++)
        answers.push(await s.call('messageSend', { token, body: { message: `m${i}` } }));
      expect(answers.slice(0, 20).every((a) => a.body.msg === 'ok')).toBe(true);
      expect(answers[20]!.status).toBe(429);
      s.clock.advance(61_000);
      expect((await s.call('messageSend', { token, body: { message: 'later' } })).body.msg).toBe('ok');
    });
  });

  describe.skipIf(!enabled)('operator view', () => {
    it('lists what waits for a human: KYC, loans, withdrawals, recharges', async () => {
      const { token, id } = await s.signUp();
      await fund(s, token, 5000);
      const card = await addCard(s, token, '60000000123456');
      const w = await s.call('withdraw', {
        token,
        body: { bank_id: card, count: 300, stock_password: TRADE_CODE },
      });
      const r = await s.call('recharge', { token, body: { count: 5000 } });
      const loan = await s.call('loanApply', { token, body: { count: 700 } });
      const front = await upload(s, token);
      await s.call('kycSubmit', {
        token,
        body: {
          real_name: 'Meera Iyer',
          id_type: 'idCard',
          id_number: '998877665544',
          id_number_img: (front.body.data as { id: string }).id,
          id_number_img_two: (front.body.data as { id: string }).id,
        },
      });
      const list = await pending(s.deps);
      expect(list.kyc).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: id, name: 'Meera Iyer', idNumber: '********5544' }),
        ]),
      );
      expect(list.loans).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: loan.body.data.id, amount: '700.00' })]),
      );
      expect(list.withdrawals).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: w.body.data.id, amount: '300.00', card: '**********3456' }),
        ]),
      );
      expect(list.recharges).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: r.body.data.id, amount: '5000.00' })]),
      );
      await expect(ops(s, 'loan:approve', 'abc')).rejects.toThrow(/Expected a loan id/);
      await expect(ops(s, 'loan:approve', '999999')).rejects.toThrow(/not waiting/);
    });
  });
});

describe('operator CLI', () => {
  it('runs a command against the database and writes it to ops_log', async () => {
    const s = await startTestServer('sqlite');
    try {
      const { id } = await s.signUp();
      const env = {
        ...process.env,
        DATABASE_URL: s.config.databaseUrl,
        LOG_LEVEL: 'silent',
        MARKET_TICK_MS: '1000',
      };
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [...program('ops'), ...args], {
          env,
          encoding: 'utf8',
        });
      const reply = run('chat:reply', String(id), 'Hello from the desk');
      expect(reply.stderr).toBe('');
      expect(reply.status).toBe(0);
      expect(reply.stdout).toMatch(/sent to user/);
      const bad = run('kyc:approve', String(id));
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/no verification under review/);
      const log = await s.deps.database.db.selectFrom('ops_log').selectAll().orderBy('id').execute();
      expect(log.map((l) => [l.command, JSON.parse(l.args)])).toEqual([
        ['chat:reply', [String(id), 'Hello from the desk']],
      ]);
      const pendingOut = run('pending');
      expect(pendingOut.status).toBe(0);
      expect(JSON.parse(pendingOut.stdout)).toHaveProperty('chats');
    } finally {
      await s.close();
    }
  }, 60_000);
});
