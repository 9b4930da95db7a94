import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
const url = process.argv[2] ?? 'http://127.0.0.1:4700/login';
const n = Number(process.argv[3] ?? 3);
for (let i = 0; i < n; i++) {
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const run = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], throttlingMethod: (process.env.TM as any) ?? 'simulate' });
  chrome.kill();
  const r: any = run!.lhr;
  const m = r.audits.metrics.details?.items?.[0] ?? {};
  console.log(`perf ${Math.round(r.categories.performance.score * 100)} FCP ${Math.round(m.firstContentfulPaint)} LCP ${Math.round(m.largestContentfulPaint)} TBT ${Math.round(m.totalBlockingTime)} obsFCP ${m.observedFirstContentfulPaint} obsLCP ${m.observedLargestContentfulPaint}`);
}
