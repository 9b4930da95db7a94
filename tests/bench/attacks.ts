import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contract, type EndpointName } from '#shared/contract/index';
import { startBenchServer } from './server-process';

/**
 * `npm run bench:attacks`: the wallet's attacks replayed against the real server over HTTP, printing
 * what each now gets. Starts its own server on a fresh SQLite database (demo defaults, as
 * `npm start`), or uses ATTACK_URL=http://host:port of one already running (then each run needs
 * fresh phone numbers, which it makes from the time). Prints figures, asserts nothing.
 */

const PORT = Number(process.env.BENCH_PORT ?? 4391);
const external = process.env.ATTACK_URL;
const base = external ?? `http://127.0.0.1:${PORT}`;
const API = `${base}/api`;
const INVITE = process.env.INVITE_CODE ?? 'BOURSE26';
const DEMO = {
  phone: process.env.DEMO_PHONE ?? '9876543210',
  password: process.env.DEMO_PASSWORD ?? 'demo1234',
};
const CODE = '246810';

type Answer = { status: number; msg: string; data: unknown };
let keySeq = 0;

async function call(name: EndpointName, body: object = {}, token?: string): Promise<Answer> {
  const ep = contract[name];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.token = token;
  if (ep.money) headers['idempotency-key'] = `attack-${process.pid}-${Date.now()}-${++keySeq}`;
  const url = new URL(API + ep.path);
  if (ep.method === 'GET') for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
  const res = await fetch(url, {
    method: ep.method,
    headers: ep.method === 'GET' ? { ...headers, 'content-type': '' } : headers,
    body: ep.method === 'GET' ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({ msg: '<not json>', data: null }))) as {
    msg: string;
    data: unknown;
  };
  return { status: res.status, msg: json.msg, data: json.data };
}

/** How many answers of each kind: `{ "errors.tooManyAttempts": 35, ok: 5 }`. */
function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.msg === 'ok' ? 'ok' : String(a.data);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

let phoneSeq = 0;
const phone = () =>
  `5${String(Date.now() % 1e7).padStart(7, '0')}${String(++phoneSeq % 100).padStart(2, '0')}`;

async function signUp(): Promise<{ phone: string; token: string }> {
  const p = phone();
  const reg = await call('register', { user: p, password: 'secret123', code: INVITE });
  if (reg.msg !== 'ok') throw new Error(`register: ${JSON.stringify(reg)}`);
  const login = await call('login', { user: p, password: 'secret123' });
  return { phone: p, token: (login.data as { token: string }).token };
}

const balance = async (token: string) =>
  ((await call('balance', {}, token)).data as { balance: string }).balance;
const lines: string[] = [];
const say = (text: string) => {
  lines.push(text);
  console.log(text);
};
const json = (v: unknown) => JSON.stringify(v);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-attacks-'));
  const stop = external ? async () => {} : await startBenchServer({ port: PORT, dir });
  try {
    say(
      `# wallet attacks against ${base} (${new Date().toISOString()}, load ${os.loadavg()[0]!.toFixed(2)})`,
    );
    const demo = (await call('login', { user: DEMO.phone, password: DEMO.password })).data as {
      token: string;
    };
    const token = demo.token;
    await call('passwordUp', { type: 'transaction', is_first: true, fund_code_new: CODE }, token);

    // Hole 1: buy a block lot under the market and sell it straight back.
    const list = (await call('blockList', { mold: 'bulk' }, token)).data as {
      rows: Array<{
        id: number;
        tag: string;
        price: number;
        market_price: number;
        count: number;
        remaining: number;
      }>;
    };
    const item = list.rows.find((r) => r.tag === 'RELIANCE.NS') ?? list.rows[0]!;
    const before = await balance(token);
    const buy = await call(
      'dealBuy',
      {
        tag: item.tag,
        count: item.count,
        price: item.price,
        mold: 'bulk',
        id: item.id,
        stock_password: CODE,
      },
      token,
    );
    const lot = buy.data as { no: string; unlock_at: number };
    const sell = await call('dealSell', { no: lot.no }, token);
    const after = await balance(token);
    say(
      `hole 1 block resale: ${item.tag} ${item.count} at ${item.price} (market ${item.market_price}); buy ${buy.msg}, ` +
        `immediate sale ${sell.msg === 'ok' ? 'ok' : sell.data}; balance ${before} -> ${after}; lot unlocks ${new Date(lot.unlock_at).toISOString()}; ` +
        `item remaining ${item.remaining} before the buy`,
    );

    // Hole 2: 40 parallel wrong guesses, for login, forgot-password and the transaction password.
    const victim = await signUp();
    const logins = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('login', { user: victim.phone, password: `wrong-${i}00` })),
    );
    say(`hole 2 40 parallel wrong logins for one phone: ${json(tally(logins))}`);
    const victim2 = await signUp();
    const forgets = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('forget', { user: victim2.phone, password: `wrong-${i}00`, new_password: 'owned123' }),
      ),
    );
    say(`hole 2 40 parallel forgot-password guesses: ${json(tally(forgets))}`);
    const victim3 = await signUp();
    await call('passwordUp', { type: 'transaction', is_first: true, fund_code_new: CODE }, victim3.token);
    const codes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(
          'dealBuy',
          {
            tag: item.tag,
            count: item.count,
            price: item.price,
            mold: 'bulk',
            id: item.id,
            stock_password: String(100000 + i),
          },
          victim3.token,
        ),
      ),
    );
    say(`hole 2 40 parallel wrong transaction passwords (block buys): ${json(tally(codes))}`);

    // Hole 3: registrations that cannot succeed are refused before any hash; one address is limited.
    const t0 = performance.now();
    const badInvites = await Promise.all(
      Array.from({ length: 40 }, () =>
        call('register', { user: phone(), password: 'secret123', code: 'NOPE00' }),
      ),
    );
    say(
      `hole 3 40 parallel registrations with a wrong invitation code: ${json(tally(badInvites))} in ${Math.round(performance.now() - t0)} ms`,
    );
    const t1 = performance.now();
    const flood = await Promise.all(
      Array.from({ length: 100 }, () => call('login', { user: phone(), password: 'secret123' })),
    );
    say(
      `hole 3 100 parallel logins (unknown phones, one address): ${json(tally(flood))} in ${Math.round(performance.now() - t1)} ms`,
    );
    const regs = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('register', { user: phone(), password: 'secret123', code: INVITE }),
      ),
    );
    say(`hole 3 30 more registrations from the same address: ${json(tally(regs))}`);

    // Hole 4: a session token alone.
    const card = {
      bank: 'Intruder Bank',
      branch_bank: 'Nowhere',
      bank_card: '4000123412349999',
      bank_user: 'Mallory',
      ifsc: 'ABCD0000001',
    };
    const addNoCode = await call('bankAdd', card, token);
    const outNoCode = await call('withdraw', { bank_id: 1, count: 1000 }, token);
    const addWithCode = await call('bankAdd', { ...card, stock_password: CODE }, token);
    const cardId = (addWithCode.data as { id: number }).id;
    const out = await call('withdraw', { bank_id: cardId, count: 1000, stock_password: CODE }, token);
    say(
      `hole 4 token only: add card ${addNoCode.data}, withdraw ${outNoCode.data}; with the code, a payout to the card just added: ` +
        `status ${(out.data as { status: string }).status}, hold ${(out.data as { hold: string }).hold} (waits for npm run ops -- withdraw:release|pay|reject)`,
    );

    // Hole 5: limit buys far from the quote, and more resting orders than the cap.
    const quote = item.market_price;
    const far = await Promise.all(
      Array.from({ length: 300 }, () =>
        call('dealBuy', { tag: item.tag, count: 1, price: Math.round(quote) / 100, mold: 'stock' }, token),
      ),
    );
    say(`hole 5 300 limit buys at 1 % of the price: ${json(tally(far))}`);
    const resting = [];
    for (let i = 0; i < 60; i++)
      resting.push(
        await call(
          'dealBuy',
          { tag: item.tag, count: 1, price: Math.round(quote * 95) / 100, mold: 'stock' },
          token,
        ),
      );
    say(`hole 5 60 limit buys 5 % under the quote (rest): ${json(tally(resting))}`);

    // Hole 6: the IPO maximum per user, over several applications.
    const ipos = (await call('ipoList')).data as {
      rows: Array<{ id: number; symbol: string; issue_price: number; max: number; window: string }>;
    };
    const ipo = ipos.rows.find((r) => r.window === 'open');
    if (ipo) {
      const apps = [];
      for (let i = 0; i < 3; i++)
        apps.push(
          await call(
            'ipoBuy',
            { id: ipo.id, tag: ipo.symbol, count: ipo.max, price: ipo.issue_price },
            token,
          ),
        );
      say(`hole 6 three applications of the maximum (${ipo.max}) for ${ipo.symbol}: ${json(tally(apps))}`);
    } else say('hole 6 no IPO open today in this seed');

    // Hole 7: the snapshot cache and unknown query parameters.
    const junk = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${API}${contract.indexList.path}?junk${i}=${i}`).then((r) => r.status),
      ),
    );
    say(`hole 7 20 market reads with unknown parameters: statuses ${json([...new Set(junk)])}`);

    // Hole 9: a recharge beyond the maximum.
    const big = await call('recharge', { count: 100_000_000 }, token);
    say(`hole 9 recharge of 10,00,00,000: ${big.msg === 'ok' ? 'ok' : big.data}`);
  } finally {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.ATTACKS_OUT) fs.writeFileSync(process.env.ATTACKS_OUT, `${lines.join('\n')}\n`);
}

await main();
