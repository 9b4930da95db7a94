import { chromium } from 'playwright';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const base = 'http://127.0.0.1:4700';
for (const [name, lang, block] of [['shell-en','en',true],['shell-de','de',true],['real-en','en',false],['real-de','de',false]]) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await ctx.addInitScript((l) => localStorage.setItem('bourse.language', l), lang);
  if (block) await page.route(/\/assets\/.*\.js$/, (r) => r.abort());
  await page.goto(base + '/login');
  if (!block) await page.getByRole('button', { name: /log in|anmelden/i }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/work/main/.scratch/${name}.png` });
  console.log(name, await page.evaluate(() => [document.documentElement.lang, document.documentElement.className, document.querySelector('h1,#boot-title')?.textContent]), errors.filter(e=>!e.includes('net::ERR_FAILED')));
  await ctx.close();
}
await browser.close();
