import { chromium } from 'playwright';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--headless=new'] });
for (const block of [true, false]) {
  const out = [];
  for (let i = 0; i < 8; i++) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    if (block) await page.route(/\/assets\/.*\.js$/, (r) => r.abort());
    await page.goto('http://127.0.0.1:4700/login');
    await page.waitForTimeout(400);
    out.push(await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime)));
    await ctx.close();
  }
  console.log(block ? 'no JS' : 'JS', out.join(' '));
}
await browser.close();
