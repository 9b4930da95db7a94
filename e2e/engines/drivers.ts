import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import puppeteer, { type ElementHandle, type Page } from 'puppeteer-core';
import { Builder, By, error, type WebDriver, type WebElement } from 'selenium-webdriver';

/**
 * One browser, driven the same way whatever speaks to it: Firefox ESR through puppeteer-core over
 * WebDriver BiDi, WebKit (MiniBrowser, the engine of Safari and every iOS browser) through
 * WebKitWebDriver with selenium-webdriver. Elements are found by XPath, which both understand;
 * clicks and typing are the driver's own input events, not scripts.
 */
export interface Engine {
  name: 'firefox' | 'webkit';
  /** The window's inner width the engine really gives (WebKit: at least ~447 px). */
  width: number;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `fn` in the page with JSON arguments and answers its JSON result (awaited). */
  run<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<Awaited<T>>;
  click(xpath: string): Promise<void>;
  type(xpath: string, text: string): Promise<void>;
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

const PHONE = { width: 390, height: 844 };

/**
 * `fn` called with `args` as a script: its source, sent as it is (tsx keeps function names with a
 * `__name` helper the page does not have).
 */
function script(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()}).apply(null, ${JSON.stringify(args)}); })()`;
}

export async function firefox(): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: true,
    // Like a phone: touch events exist (the app's swipe-back and charts listen for them).
    extraPrefsFirefox: { 'dom.w3c_touch_events.enabled': 1 },
  });
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.setViewport(PHONE);
  const one = async (xpath: string) => {
    const el = await page.waitForSelector(`::-p-xpath(${xpath})`, { visible: true, timeout: 60_000 });
    if (!el) throw new Error(`not found: ${xpath}`);
    return el;
  };
  // Puppeteer clicks where the control was when it looked: on a page still settling (a loaded
  // machine) the control can move under the pointer, and the tap lands on its neighbour. As
  // WebKit's click below and Playwright's actionability: scrolled clear, its box still across two
  // frames, and the control itself (or what it holds) at its centre, where the click goes.
  const clickable = async (el: ElementHandle<Element>, xpath: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await el.evaluate(
        (e) =>
          new Promise<boolean>((resolve) => {
            e.scrollIntoView({ block: 'center' });
            const a = e.getBoundingClientRect();
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const b = e.getBoundingClientRect();
                const still = a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
                const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
                resolve(still && hit !== null && e.contains(hit));
              }),
            );
          }),
      );
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`not clickable (moving or covered) for 30 s: ${xpath}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    name: 'firefox',
    width: PHONE.width,
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    reload: async () => void (await page.reload({ waitUntil: 'load' })),
    run: (fn, ...args) => page.evaluate(script(fn as never, args)) as never,
    async click(xpath) {
      const el = await one(xpath);
      await clickable(el, xpath);
      await el.click();
    },
    async type(xpath, text) {
      const el = await one(xpath);
      // A person scrolls the field clear of the sticky Buy/Sell bar before tapping it; a click at
      // its centre while the bar covers it presses the bar's button instead.
      await clickable(el, xpath);
      await el.click({ count: 3 });
      await el.type(text);
    },
    async screenshot(file) {
      fs.writeFileSync(file, await page.screenshot());
    },
    close: () => browser.close(),
  };
}

const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * WebKitGTK's MiniBrowser. This build has no headless mode, so WebKitWebDriver (and the browser it
 * starts) run under Xvfb (`xvfb-run`). Its window cannot be made narrower than about 447 px: the
 * journey runs at that width and 844 px high, not at a phone's 390 (the app's layout is the same
 * below 768 px, where the desktop warning starts).
 */
export async function webkit(options: { userAgent?: string } = {}): Promise<Engine> {
  const port = await freePort();
  const driverProcess: ChildProcess = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1024x1000x24', 'WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'],
    { stdio: 'ignore', detached: true },
  );
  const stopDriver = () => {
    try {
      if (driverProcess.pid) process.kill(-driverProcess.pid, 'SIGTERM');
    } catch {}
  };
  let driver: WebDriver;
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/status`)).ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error('WebKitWebDriver did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    driver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': {
          binary: process.env.MINIBROWSER_PATH ?? MINIBROWSER,
          args: ['--automation', ...(options.userAgent ? [`--user-agent=${options.userAgent}`] : [])],
        },
      })
      .build();
    await driver
      .manage()
      .window()
      .setRect({ x: 0, y: 0, ...PHONE });
  } catch (err) {
    stopDriver();
    throw err;
  }
  const width = await driver.executeScript<number>('return window.innerWidth');
  const one = async (xpath: string): Promise<WebElement> => {
    const deadline = Date.now() + 60_000; // a bound for a loaded machine; the element is polled for
    for (;;) {
      for (const el of await driver.findElements(By.xpath(xpath))) if (await el.isDisplayed()) return el;
      if (Date.now() > deadline) throw new Error(`not found: ${xpath}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    name: 'webkit',
    width,
    goto: (url) => driver.get(url),
    reload: () => driver.navigate().refresh(),
    run: (fn, ...args) =>
      driver
        .executeAsyncScript(
          `const done = arguments[arguments.length - 1];
         Promise.resolve(${script(fn as never, args)})
           .then((v) => done({ v }), (e) => done({ e: String(e && e.stack || e) }));`,
        )
        .then((r) => {
          const out = r as { v?: unknown; e?: string };
          if (out.e) throw new Error(out.e);
          return out.v as never;
        }),
    async click(xpath) {
      const el = await one(xpath);
      // WebDriver scrolls a control only until its bottom edge is in the window, where the
      // customer-service bar floats: the bar took the click (ElementClickInterceptedError). A person
      // scrolls it clear first — and, on a page still settling, looks again before tapping: under
      // two busy loops Settings' Log out moved after the scroll and the tap landed on its neighbour.
      // So, as Playwright's actionability: the box still across two frames and the control itself
      // (or what it holds) at its centre, where WebDriver clicks.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ready = await driver.executeAsyncScript<boolean>(
          `const el = arguments[0], done = arguments[arguments.length - 1];
           el.scrollIntoView({ block: 'center' });
           const a = el.getBoundingClientRect();
           requestAnimationFrame(() => requestAnimationFrame(() => {
             const b = el.getBoundingClientRect();
             const still = a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
             const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
             done(still && hit !== null && el.contains(hit));
           }));`,
          el,
        );
        if (ready) {
          try {
            await el.click();
            return;
          } catch (err) {
            // Between the look and the tap the page moved again (under load Settings' Log out was
            // covered at WebDriver's own check). WebDriver then clicked nothing: look again, as
            // Playwright retries an intercepted click.
            if (!(err instanceof error.ElementClickInterceptedError)) throw err;
          }
        }
        if (Date.now() > deadline) throw new Error(`not clickable (moving or covered) for 30 s: ${xpath}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async type(xpath, text) {
      const el = await one(xpath);
      // Selected, then typed over: React hears one change (clear() sets the value behind its back).
      await driver.executeScript(
        "arguments[0].scrollIntoView({ block: 'center' }); arguments[0].focus(); arguments[0].select();",
        el,
      );
      await el.sendKeys(text);
    },
    async screenshot(file) {
      // WebKitGTK's capture is the last frame painted: under load that was still the screen before
      // its data came (skeletons the page no longer had). Two frames first.
      await driver.executeAsyncScript(
        'const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()));',
      );
      fs.writeFileSync(file, await driver.takeScreenshot(), 'base64');
    },
    async close() {
      try {
        await driver.quit();
      } finally {
        stopDriver();
      }
    },
  };
}
