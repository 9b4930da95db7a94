import { chromium } from 'playwright';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const out = [];
for (let i = 0; i < 8; i++) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto('http://127.0.0.1:4700/login');
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  out.push(await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    const main = performance.getEntriesByType('resource').find((r) => r.name.includes('/main-'));
    const lcp = new Promise((res) => new PerformanceObserver((l) => res(l.getEntries().map((e) => Math.round(e.startTime)))).observe({ type: 'largest-contentful-paint', buffered: true }));
    return lcp.then((l) => ({ fcp: Math.round(fcp), mainStart: Math.round(main.startTime), mainEnd: Math.round(main.responseEnd), lcp: l }));
  }));
  await ctx.close();
}
console.log(out.map((o) => JSON.stringify(o)).join('\n'));
await browser.close();
