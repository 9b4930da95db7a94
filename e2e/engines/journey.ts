import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { sessionTag } from '../../server/lib/request-ids';
import { serverNow } from '../clock-start';
import type { Engine } from './drivers';
import { ERRORS_KEY, type Request, type TestServer } from './server';

/**
 * One journey a new user makes, in an engine Playwright cannot drive here (Firefox, WebKit): sign
 * in → Home's figures (and the requests that reach the server over 30 s there) → the server
 * stopped, and each main screen opened by a full page load shows what Home fetched, marked last
 * known with its time, and "not loaded yet" for the rest (the shell from the service
 * worker) → the server back → a stock's chart → a buy through its review → holdings → the quote
 * widget → logout. The server's own request log
 * counts what arrived: each poll once per interval, each POST that moves money or a session once —
 * of the journey's own session only (the log tags each request with its session; a browser an
 * earlier, killed run left polling the port is a stranger and counts for nothing).
 * No page errors (the page's capture: WebKitWebDriver cannot read the console). With `twoFactor`
 * (WebKit): an authenticator app enrolled from its key, and after the logout a sign-in with
 * password and the app's code.
 */
export const DEMO = { phone: '9876543210', password: 'demo1234' };
const API = '/api';

/** Account info's poll (SPEC §7: every 3 s) and the window on Home its count is checked over. */
export const USER_INFO = `${API}/stock/success/v2/user/info`;
const USER_INFO_EVERY_MS = 3_000;
const HOME_WINDOW_MS = 30_000;
/** Polls enough to say it polls, whatever the load. */
const HOME_MIN_INFO = 3;

/** What the journey measured, printed by the runner. */
export interface JourneyReport {
  steps: Array<{ step: string; ms: number }>;
  /** On Home over the window: each GET of the journey's session, its count and the shortest gap between two. */
  homePolls: Array<{ request: string; count: number; minGapMs: number }>;
  homeWindowMs: number;
  /** API requests in the window from another session than the journey's (counted for nothing). */
  homeStrangers: number;
  /** What the notification settings said of this device: unsupported, iosInstall, offered, on or denied. */
  notifications: string;
}

// XPath for what a user sees: a button or link by its text or label, a field by its label.
const lit = (s: string) => (s.includes("'") ? `concat('${s.split("'").join(`', "'", '`)}')` : `'${s}'`);
const named = (s: string) => `(normalize-space(.)=${lit(s)} or @aria-label=${lit(s)})`;
export const button = (name: string, within = '') => `${within}//button[${named(name)}]`;
export const link = (name: string) => `//a[${named(name)}]`;
export const field = (label: string) => `//input[@id=//label[normalize-space(.)=${lit(label)}]/@for]`;
export const dialog = (name: string) =>
  `//*[self::dialog or @role='dialog'][@aria-label=${lit(name)} or @aria-labelledby=//*[normalize-space(.)=${lit(name)}]/@id]`;

/**
 * How long a step may take: a condition is polled, never slept on, so this only bounds a loaded
 * machine (at load 29 Firefox's first Home after signing in took longer than 20 s).
 */
const STEP_MS = 60_000;

/** Waits until `fn` (run in the page) answers something truthy; answers it. */
export async function until<T, A extends unknown[]>(
  engine: Engine,
  what: string,
  fn: (...args: A) => T | Promise<T>,
  ...args: A
): Promise<Awaited<T>> {
  const deadline = Date.now() + STEP_MS;
  let last: unknown;
  for (;;) {
    try {
      const got = await engine.run(fn, ...args);
      if (got) return got;
      last = got;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`${engine.name}: waited ${STEP_MS / 1000} s for ${what} (last: ${String(last)})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits until what `fn` reads in the page (given `args`) passes `ok` (checked here); answers it. */
async function seen<T, A extends unknown[]>(
  engine: Engine,
  what: string,
  fn: (...args: A) => T,
  ok: (v: Awaited<T>) => boolean,
  ...args: A
) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const got = await engine.run(fn, ...args);
    if (ok(got)) return got;
    if (Date.now() > deadline)
      throw new Error(
        `${engine.name}: waited ${STEP_MS / 1000} s for ${what} (last: ${JSON.stringify(got)})`,
      );
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits until the server has seen something. */
async function serverSaw(server: TestServer, what: string, test: (r: Request[]) => boolean, ms = STEP_MS) {
  const deadline = Date.now() + ms;
  while (!test(server.requests)) {
    if (Date.now() > deadline)
      throw new Error(`the server never saw ${what}; it saw:\n${listed(server.requests.slice(-60))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Requests as a reader of a failure needs them: the server's time of each (and its offset from
 * `from`), method, path, answer, session tag and connection.
 */
export function listed(requests: Request[], from = requests[0]?.at ?? 0): string {
  if (!requests.length) return '  (none)';
  return requests
    .map(
      (r) =>
        `  ${new Date(r.at).toISOString().slice(11, 23)} (+${((r.at - from) / 1000).toFixed(3)} s) ${r.method} ${r.url} → ${r.status ?? '…'}` +
        ` · session ${r.session ?? '-'} · conn ${r.conn ?? '?'}`,
    )
    .join('\n');
}

/**
 * The journey's sessions as the server's log knows them: the tags of the tokens it signed in
 * with. Its requests are those that carried one, and any other (a sign-in's POST without a token,
 * a second factor's with the sign-in step's) that came on a connection that also carried one — a
 * connection is one browser's.
 */
export class Own {
  readonly tags = new Set<string>();
  add(token: string): void {
    this.tags.add(sessionTag(token));
  }
  conns(requests: Request[]): Set<number> {
    return new Set(
      requests.filter((r) => r.session && this.tags.has(r.session) && r.conn).map((r) => r.conn!),
    );
  }
  of(requests: Request[]): Request[] {
    const conns = this.conns(requests);
    return requests.filter(
      (r) =>
        (r.session !== undefined && this.tags.has(r.session)) || (r.conn !== undefined && conns.has(r.conn)),
    );
  }
  /**
   * Connections of another session: one that polled (a GET with a token not the journey's). A
   * sign-in step's token is the journey's too, but it polls nothing.
   */
  strangers(requests: Request[]): Set<number> {
    return new Set(
      requests
        .filter((r) => r.method === 'GET' && r.session && !this.tags.has(r.session) && r.conn)
        .map((r) => r.conn!),
    );
  }
  /**
   * The journey's requests, and since `from` (the journey's action: a sign-in's button pressed)
   * also those without its session that came on no stranger's connection: a sign-in's POST need
   * not come on a connection its session later uses (Firefox's did not).
   */
  since(requests: Request[], from: number): Request[] {
    const mine = new Set(this.of(requests));
    const strangers = this.strangers(requests);
    return requests.filter(
      (r) => mine.has(r) || (r.at >= from && !(r.conn !== undefined && strangers.has(r.conn))),
    );
  }
}

/** The session token the page keeps (src/store/session.ts), read from the page. */
async function pageToken(engine: Engine): Promise<string> {
  return until(engine, 'the session token on the device', () => {
    const kept = JSON.parse(localStorage.getItem('bourse.session') ?? 'null') as {
      state?: { token?: string | null };
    } | null;
    return kept?.state?.token ?? '';
  });
}

/** The 6-digit code an authenticator app shows at `at` (the server's clock) for a base32 key. */
const appCode = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

const bodyHas = (text: string) => (document.body.textContent ?? '').includes(text);
/** Home's "Your assets" card (run in the page): its text, whether it shows a figure, and whether last known. */
const assets = () => {
  const text =
    [...document.querySelectorAll<HTMLElement>('section')].find(
      (e) => e.getAttribute('aria-label') === 'Your assets',
    )?.textContent ?? '';
  return { text, figure: /₹[\d,]+\.\d\d/.test(text), lastKnown: text.includes('Last known') };
};

/** What the phone says of what it never fetched while the server is silent. */
const NOT_LOADED = "Not loaded yet — Bourse can't be reached";

/** A part of a screen shown from the device: where it is, and the figure it shows. */
interface Part {
  /** A CSS selector inside the page. */
  at: string;
  /** The figure's text, whole (a regular expression's source). */
  figure: string;
}
const MONEY = '^₹[\\d,]+\\.\\d\\d$';
const PRICE = '^[\\d,]+\\.\\d\\d$';

/**
 * A screen after a full page load (run in the page): the connection banner's state, how many
 * "not loaded yet" sentences and placeholders are left in it, and for each part whether it shows
 * its figure, "Last known" and an as-of time (a price's own time may be another day's: the date
 * comes with it) — the texts of the smallest elements holding them, as a reader sees them.
 */
const offlineScreen = (parts: Part[], notLoaded: string) => {
  const norm = (e: Element) => (e.textContent ?? '').replace(/\s+/g, ' ').trim();
  const has = (root: Element, test: (text: string) => boolean) =>
    [...root.querySelectorAll('*')].some((e) => test(norm(e)));
  const main = document.querySelector('main');
  return {
    connection: document.querySelector('[data-connection]')?.getAttribute('data-connection') ?? null,
    notLoaded: main
      ? [...main.querySelectorAll('*')].filter(
          (e) => norm(e).includes(notLoaded) && ![...e.children].some((c) => norm(c).includes(notLoaded)),
        ).length
      : 0,
    placeholders: main?.querySelectorAll('[class*="skeleton"]').length ?? 0,
    parts: parts.map(({ at, figure }) => {
      const root = document.querySelector(at);
      if (!root) return { at, found: false };
      const re = new RegExp(figure);
      const shown = [...root.querySelectorAll('*')].map(norm).find((t) => re.test(t));
      return {
        at,
        figure: shown ?? null,
        lastKnown: has(root, (t) => t === 'Last known'),
        asOf: has(root, (t) => /^as of (\d\d\/\d\d\/\d{4}, )?\d\d:\d\d(:\d\d)?$/.test(t)),
      };
    }),
  };
};
type OfflineScreen = ReturnType<typeof offlineScreen>;

/** Whether the worker kept answers under all of `keys` on the device (run in the page). */
const keptAnswers = (keys: string[]) =>
  new Promise<boolean>((resolve) => {
    const req = indexedDB.open('bourse');
    req.onerror = () => resolve(false);
    req.onsuccess = () => {
      const db = req.result;
      if (![...db.objectStoreNames].includes('answers')) return resolve(false);
      const all = db.transaction('answers', 'readonly').objectStore('answers').getAllKeys();
      all.onsuccess = () => resolve(keys.every((k) => all.result.map(String).includes(k)));
      all.onerror = () => resolve(false);
    };
  });

/**
 * The main screens a full page load opens while the server is stopped, after a session that
 * looked at Home only: what each shows from what Home fetched, and how many of its parts were never
 * fetched (e2e/offline-reload.spec.ts walks the same in Chromium, and a few screens more).
 */
const OFFLINE_WALK: Array<{ path: string; parts: Part[]; notLoaded: number }> = [
  {
    path: '/',
    parts: [
      { at: 'section[aria-label="Your assets"]', figure: MONEY },
      { at: 'section[aria-labelledby="home-indices"]', figure: PRICE },
    ],
    notLoaded: 0,
  },
  // The account's figures derive from Home's answers; its market list was never fetched.
  { path: '/account', parts: [{ at: 'section[aria-label="Your assets"]', figure: MONEY }], notLoaded: 1 },
  // The portfolio's totals; the holdings list was never fetched.
  { path: '/trade', parts: [{ at: '[data-testid="portfolio-totals"]', figure: MONEY }], notLoaded: 1 },
  // The categories and the first one's index cards (from Home's list of all); its stocks, not.
  { path: '/markets', parts: [{ at: 'main', figure: PRICE }], notLoaded: 1 },
  // The index cards; the favourites were never fetched.
  { path: '/watchlists', parts: [{ at: 'main', figure: PRICE }], notLoaded: 1 },
];

/** Whether `got` is the walk's screen settled as it should be. */
function settledOffline(got: OfflineScreen, notLoaded: number): boolean {
  return (
    got.connection === 'unreachable' &&
    got.notLoaded === notLoaded &&
    got.placeholders === 0 &&
    got.parts.every((p) => 'figure' in p && p.figure && p.lastKnown && p.asOf)
  );
}

function posts(requests: Request[], apiPath: string): Request[] {
  return requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === `${API}${apiPath}`);
}

/**
 * The journey's own POST to `apiPath` reached the server once (a stranger's are listed, not
 * counted). One made without the session's token (a sign-in's) is the journey's if it came after
 * `from`, the moment the journey pressed its button, on no stranger's connection.
 */
async function expectOnce(server: TestServer, own: Own, apiPath: string, from?: number): Promise<void> {
  await server.logged();
  const all = posts(server.requests, apiPath);
  const mine = posts(
    from === undefined ? own.of(server.requests) : own.since(server.requests, from),
    apiPath,
  );
  if (mine.length !== 1)
    throw new Error(
      `POST ${apiPath} of this journey's session reached the server ${mine.length} times:\n${listed(mine)}\n` +
        `every POST ${apiPath} the server saw (sessions ${[...own.tags].join(', ') || 'none'} are this journey's, ` +
        `on connections ${[...own.conns(server.requests)].join(', ') || 'none'}):\n${listed(all)}`,
    );
}

/**
 * What is wrong with the journey's own requests on Home in [from, to), or null: a GET sent twice
 * within 1 s, or user info more often than every 3 s. Fewer polls than the interval allows are no
 * fault (a poll waits for the previous answer: slower on a loaded machine).
 */
export function homePollProblem(mine: Request[], from: number, to: number): string | null {
  const window = `${((to - from) / 1000).toFixed(1)} s`;
  const doubled = pollsIn(mine, from, to)
    .filter((p) => p.minGapMs < 1_000)
    .map((p) => p.request);
  if (doubled.length)
    return (
      `requests of this session sent twice within 1 s on Home: ${doubled.join(', ')}; in the ${window}:\n` +
      listed(
        mine.filter((r) => r.method === 'GET' && doubled.includes(r.url)),
        from,
      )
    );
  // SPEC §7: account info every 3 s, the next poll 3 s after the last answer: at most one per
  // 3 s of the window, and one more by where the window falls.
  const most = Math.floor((to - from) / USER_INFO_EVERY_MS) + 1;
  const info = mine.filter((r) => r.method === 'GET' && r.url === USER_INFO && r.at >= from && r.at < to);
  if (info.length > most)
    return `user info asked for ${info.length} times in ${window} on Home (at most ${most}: every 3 s):\n${listed(info, from)}`;
  return null;
}

/** Each GET of the API in [from, to): how often, and the shortest gap between two of the same. */
export function pollsIn(requests: Request[], from: number, to: number): JourneyReport['homePolls'] {
  // Only the requests given (the journey's own): the caller filters out strangers.
  const byKey = new Map<string, number[]>();
  for (const r of requests) {
    if (r.method !== 'GET' || !r.url.startsWith(`${API}/`) || r.at < from || r.at >= to) continue;
    const key = r.url;
    byKey.set(key, [...(byKey.get(key) ?? []), r.at]);
  }
  return [...byKey]
    .map(([request, at]) => ({
      request,
      count: at.length,
      minGapMs: at.length < 2 ? Number.POSITIVE_INFINITY : Math.min(...at.slice(1).map((t, i) => t - at[i]!)),
    }))
    .sort((a, b) => a.request.localeCompare(b.request));
}

export async function journey(
  engine: Engine,
  server: TestServer,
  /** `twoFactor`: also enrol an authenticator app once and sign in with its code (WebKit). */
  options: { shots?: string; ios?: boolean; twoFactor?: boolean } = {},
): Promise<JourneyReport> {
  const report: JourneyReport = {
    steps: [],
    homePolls: [],
    homeWindowMs: 0,
    homeStrangers: 0,
    notifications: '',
  };
  const own = new Own();
  let t = Date.now();
  const step = async (name: string, body: () => Promise<void>) => {
    try {
      await body();
    } catch (err) {
      if (options.shots)
        await engine.screenshot(path.join(options.shots, `${engine.name}-failed.png`)).catch(() => {});
      const errors = await pageErrors(engine).catch(() => []);
      const shown = await onScreen(engine).catch(() => '');
      throw new Error(
        `${engine.name} · ${name}: ${errorText(err)}${errors.length ? `\npage errors:\n${errors.join('\n')}` : ''}${shown ? `\non screen:\n${shown}` : ''}`,
      );
    }
    if (options.shots)
      await engine.screenshot(
        path.join(
          options.shots,
          `${engine.name}-${report.steps.length + 1}-${name.replace(/\W+/g, '-')}.png`,
        ),
      );
    report.steps.push({ step: name, ms: Date.now() - t });
    t = Date.now();
  };
  const url = (p: string) => `${server.url}${p}`;

  await step('sign in', async () => {
    await engine.goto(url('/login'));
    await engine.type(field('Phone number'), DEMO.phone);
    await engine.type(field('Password'), DEMO.password);
    const pressed = Date.now();
    await engine.click(button('Log in'));
    await until(engine, 'Home', () => location.pathname === '/');
    own.add(await pageToken(engine));
    await serverSaw(server, "a request of this journey's session", (r) => own.of(r).length > 0);
    await expectOnce(server, own, '/stock/user/login', pressed);
  });

  if (options.ios)
    await step('iOS home-screen guide', async () => {
      // iOS Safari has no install prompt: after the first sign-in, the Share → Add to Home Screen guide.
      await engine.click(button('Got it', dialog('Add Bourse to your Home Screen')));
      await until(engine, 'the guide closed', () => !document.querySelector('dialog[open]'));
    });

  await step('home figures', async () => {
    await seen(engine, 'the total assets', assets, (a) => a.figure);
    await until(
      engine,
      'the index cards',
      () => document.querySelectorAll('[aria-labelledby="home-indices"] li').length > 0,
    );
    // The requests of this session on Home, as the server saw them: each poll at most once per
    // interval. The window is 30 s at least, and lasts until user info was asked for a few times:
    // a poll waits for the previous answer, so on a loaded machine fewer come (no fault), never more.
    const from = Date.now();
    const mineSince = () => own.of(server.requests).filter((r) => r.at >= from);
    const infos = (rs: Request[]) => rs.filter((r) => r.method === 'GET' && r.url === USER_INFO);
    const deadline = from + HOME_WINDOW_MS + STEP_MS;
    while (Date.now() < from + HOME_WINDOW_MS || infos(mineSince()).length < HOME_MIN_INFO) {
      if (Date.now() > deadline)
        throw new Error(
          `user info asked for ${infos(mineSince()).length} times in ${((Date.now() - from) / 1000).toFixed(1)} s ` +
            `on Home (at least ${HOME_MIN_INFO} expected); this session's requests:\n${listed(mineSince(), from)}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
    const to = Date.now();
    await server.logged();
    const inWindow = (rs: Request[]) => rs.filter((r) => r.at >= from && r.at < to);
    const mine = inWindow(own.of(server.requests));
    report.homePolls = pollsIn(mine, from, to);
    report.homeWindowMs = to - from;
    report.homeStrangers = inWindow(server.requests).filter(
      (r) => r.url.startsWith(`${API}/`) && !mine.includes(r),
    ).length;
    const problem = homePollProblem(mine, from, to);
    if (problem) throw new Error(problem);
  });

  if (options.ios)
    await step('iOS workarounds', async () => {
      // SPEC §1, on an iPhone's user agent: zoom stays at 1 (maximum-scale, pinch gestures and
      // two-finger moves cancelled) and a restored page is nudged to repaint 100 ms later.
      const zoom = await engine.run(() => {
        const viewport = document.querySelector<HTMLMetaElement>('meta[name="viewport"]')?.content ?? '';
        const cancelled = (type: string, touches?: number) => {
          const e = new Event(type, { cancelable: true, bubbles: true });
          if (touches) Object.defineProperty(e, 'touches', { value: { length: touches } });
          document.body.dispatchEvent(e);
          return e.defaultPrevented;
        };
        return {
          viewport,
          gesture: cancelled('gesturestart') && cancelled('gesturechange'),
          twoFingers: cancelled('touchmove', 2),
          oneFinger: cancelled('touchmove', 1),
        };
      });
      if (!/maximum-scale=1/.test(zoom.viewport) || !zoom.gesture || !zoom.twoFingers || zoom.oneFinger)
        throw new Error(`zoom not blocked as on iOS: ${JSON.stringify(zoom)}`);
      const nudged = await engine.run(() => {
        window.dispatchEvent(new Event('pageshow'));
        return document.body.style.opacity;
      });
      if (nudged !== '0.99') throw new Error(`no repaint nudge on pageshow (opacity "${nudged}")`);
      await until(engine, 'the opacity restored', () => document.body.style.opacity === '');
    });

  // After a session that looked at Home only, each main screen by a full page load (a tap
  // on the home-screen icon) while the server is stopped — the phone still online.
  await step('offline reload: Home kept', async () => {
    await until(
      engine,
      'an active service worker',
      async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
    );
    // The worker keeps the account's answers on the device as they arrive.
    await until(engine, "the account's answers on the device", keptAnswers, [
      'userInfo:{}',
      'portfolioSummary:{}',
    ]);
    server.pause();
  });
  let homeTotal = '';
  for (const screen of OFFLINE_WALK)
    await step(`offline reload: ${screen.path}`, async () => {
      await engine.goto(url(screen.path));
      const got = await seen(
        engine,
        `${screen.path} from the device, ${screen.notLoaded} part(s) not loaded`,
        offlineScreen,
        (v) => settledOffline(v, screen.notLoaded),
        screen.parts,
        NOT_LOADED,
      );
      // The page came from the service worker: the server sent none of it.
      if (!(await engine.run(() => navigator.serviceWorker.controller !== null)))
        throw new Error(`${screen.path}: loaded, but no service worker controls it`);
      // Account's total is Home's, derived from the same answers.
      const total = got.parts.find((p) => p.at === 'section[aria-label="Your assets"]');
      const figure = total && 'figure' in total ? (total.figure ?? '') : '';
      if (screen.path === '/') homeTotal = figure;
      else if (total && figure !== homeTotal)
        throw new Error(`${screen.path}: total ${figure}, Home's last known ${homeTotal}`);
    });

  await step('server back', async () => {
    server.resume();
    await until(engine, 'the banner gone', () => !document.querySelector('[data-connection]'));
    // The last screen walked fills in by itself, live: nothing "not loaded", nothing marked last
    // known. On a failure, what is still so (and where) says which answer never came.
    await seen(
      engine,
      'the screen filled in, live',
      (text) => {
        const main = document.querySelector('main');
        const left = [...(main?.querySelectorAll('*') ?? [])]
          .filter((e) => {
            const t = e.textContent ?? '';
            const stale = t.includes(text) || t.includes('Last known');
            return (
              stale &&
              ![...e.children].some(
                (c) => (c.textContent ?? '').includes(text) || (c.textContent ?? '').includes('Last known'),
              )
            );
          })
          .map((e) => {
            const part = e.closest('section,[aria-label],li');
            return `${part?.getAttribute('aria-label') ?? part?.tagName ?? '?'}: ${(e.textContent ?? '').trim().slice(0, 80)}`;
          });
        return {
          path: location.pathname,
          banner: document.querySelector('[data-connection]')?.getAttribute('data-connection') ?? null,
          left,
        };
      },
      (v) => v.left.length === 0,
      NOT_LOADED,
    );
  });

  await step('stock chart', async () => {
    await engine.goto(url('/stock/RELIANCE.NS/IN/Reliance%20Industries'));
    await until(engine, 'the price', () =>
      /^\d[\d,]*\.\d{2}$/.test(document.querySelector('[data-testid="price"]')?.textContent ?? ''),
    );
    await until(
      engine,
      'candles drawn',
      () =>
        Number(document.querySelector('[role="img"][data-candles]')?.getAttribute('data-candles') ?? 0) > 0,
    );
  });

  await step('buy through the review', async () => {
    await engine.goto(url('/trading/RELIANCE'));
    await until(engine, 'the ticket', () => location.pathname.startsWith('/stock/trading/RELIANCE.NS/'));
    await engine.type(field('Quantity'), '2');
    await until(engine, 'the estimate', () =>
      /₹[\d,]+\.\d{2}/.test(document.querySelector('[data-testid="trade-estimate"]')?.textContent ?? ''),
    );
    await engine.click(button('Buy RELIANCE'));
    await engine.click(button('Confirm buy', dialog('Buy RELIANCE?')));
    await engine.click(button('Done', dialog('Order filled')));
    await expectOnce(server, own, '/stock/success/deal/buy');
  });

  await step('holdings', async () => {
    await engine.goto(url('/trade'));
    await until(engine, 'RELIANCE held', () =>
      // A holding row shows the name, the code, then the quantity.
      [...document.querySelectorAll('li[data-symbol="RELIANCE.NS"] a')].some((a) =>
        /^Reliance Industries RELIANCE 2 /.test((a.textContent ?? '').replace(/\s+/g, ' ').trim()),
      ),
    );
  });

  // Web Push where the engine has it; where it has no PushManager the screen says so, never an error
  // (the page errors are read at the end of the journey).
  await step('notification settings', async () => {
    await engine.goto(url('/settings/notifications'));
    const state = await until(engine, "this device's notification state", () => {
      if (document.querySelector('[data-testid="push-unsupported"]')) return 'unsupported';
      if (document.querySelector('[data-testid="push-on"]')) return 'on';
      // An iPhone's browser, the app not on its Home Screen: the guide first.
      if (/How to add to Home Screen/.test(document.body.textContent ?? '')) return 'iosInstall';
      const buttons = [...document.querySelectorAll('button')].map((b) => b.textContent?.trim());
      if (buttons.includes('Turn on notifications')) return 'offered';
      return /Notifications are blocked/.test(document.body.textContent ?? '') ? 'denied' : '';
    });
    const hasPush = await engine.run(() => 'PushManager' in window);
    if (state === 'unsupported' ? hasPush : !hasPush && state !== 'iosInstall')
      throw new Error(
        `notification settings say "${state}" where PushManager is ${hasPush ? '' : 'not '}present`,
      );
    report.notifications = state;
  });

  await step('quote widget', async () => {
    await engine.goto(url('/iframe.html?symbol=RELIANCE.NS&market=IN'));
    await until(engine, 'the widget price', () =>
      /\d[\d,]*\.\d{2}/.test(document.querySelector('article')?.textContent ?? ''),
    );
  });

  // An authenticator app set up from its key (the code computed here, as the app would).
  let totpSecret = '';
  if (options.twoFactor)
    await step('authenticator app: enrol', async () => {
      await engine.goto(url('/settings/security'));
      await engine.click(button('Set up'));
      totpSecret = await until(engine, 'the key', () =>
        (document.querySelector('[data-testid="totp-secret"]')?.textContent ?? '').replace(/\s+/g, ''),
      );
      await engine.type(
        field('3. Enter the 6-digit code the app shows'),
        appCode(totpSecret, await serverNow(server.url)),
      );
      await engine.click(button('Turn on'));
      await engine.click(button('I have saved them'));
      await until(engine, 'the app on', bodyHas, 'Codes from an app');
      await until(engine, 'the app on', () =>
        [...document.querySelectorAll('span')].some((e) => e.textContent === 'On'),
      );
    });

  await step('log out', async () => {
    await engine.goto(url('/settings'));
    await engine.click(button('Log out'));
    await engine.click(button('Log out', dialog('Log out?')));
    await until(engine, 'the login screen', () => location.pathname === '/login');
    await expectOnce(server, own, '/stock/success/user/logout');
    await expectOnce(server, own, '/stock/success/deal/buy');
  });

  if (options.twoFactor)
    await step('sign in with password and the app code', async () => {
      await engine.goto(url('/login'));
      await engine.type(field('Phone number'), DEMO.phone);
      await engine.type(field('Password'), DEMO.password);
      await engine.click(button('Log in'));
      await until(engine, 'the second step', bodyHas, 'Two-step sign-in');
      // The enrolment's code was good once: the next 30-second step's code.
      await engine.type(
        field('Code from your authenticator app'),
        appCode(totpSecret, (await serverNow(server.url)) + 30_000),
      );
      const pressed = Date.now();
      await engine.click(button('Verify'));
      await until(engine, 'signed in', () => location.pathname !== '/login');
      own.add(await pageToken(engine));
      await serverSaw(server, "a request of the new session's", (r) => own.of(r).length > 0);
      await expectOnce(server, own, '/stock/user/second-factor', pressed);
    });

  const errors = await pageErrors(engine);
  if (errors.length) throw new Error(`${engine.name}: page errors:\n${errors.join('\n')}`);
  return report;
}

/** An error as a reader needs it: WebDriver's errors may carry only a name (an empty message). */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.message
    ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}`
    : `${err.name} (no message) ${err.stack ?? ''}`;
}

/**
 * What the screen showed when a step failed: the address, and the text of open dialogs, alerts,
 * status messages and the first heading (a dialog other than the one waited for, an error toast).
 */
function onScreen(engine: Engine): Promise<string> {
  return engine.run(() =>
    [
      `  at ${location.pathname}${location.search}`,
      ...[
        ...document.querySelectorAll(
          'dialog[open],[role="dialog"],[role="alertdialog"],[role="alert"],[role="status"],h1',
        ),
      ]
        .map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200))
        .filter((t) => t)
        .map((t) => `  ${t}`),
      // What the screen itself says (a list's rows, "Last known", "not loaded yet"), in short.
      `  main: ${(document.querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 600)}`,
    ].join('\n'),
  );
}

/** What the page's capture kept (server.ts): uncaught errors, rejections, console.error. */
function pageErrors(engine: Engine): Promise<string[]> {
  return engine.run((key) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[], ERRORS_KEY);
}
