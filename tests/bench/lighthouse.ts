import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright';

/**
 * Lighthouse (mobile, its default form factor) on a page of a running server, the median of
 * several runs (bench:ui, bench:budget). Debian's Chromium by CHROME_PATH (default /usr/bin/chromium).
 */

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export type Lhr = {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    {
      score: number | null;
      numericValue?: number;
      displayValue?: string;
      title: string;
      errorMessage?: string;
      details?: { items?: Array<Record<string, unknown>> };
    }
  >;
  runtimeError?: { code: string; message: string };
};

/**
 * Lighthouse's two ways of throttling: `simulate` (its default: an unthrottled load, replayed by a
 * model of a slow phone — which counts a script as blocking the first paint when, on loopback, it
 * finished downloading before the headless browser's first frame) and `devtools` (the load itself
 * runs on a throttled network and CPU: what a slow phone lives through).
 */
export type Throttling = 'simulate' | 'devtools';

/**
 * One run. `withSession`: a script run on the origin first (the signed-in user's localStorage);
 * then storage is kept for the run.
 */
async function lighthouseOnce(url: string, withSession: string | null, throttling: Throttling): Promise<Lhr> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    if (withSession) {
      // Sign in on a page that does not start the app (no service worker yet): a first visit to home.
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(`${new URL(url).origin}/manifest.webmanifest`);
      await page.evaluate(withSession);
      await page.close();
      await browser.close();
    }
    const run = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: withSession !== null,
      throttlingMethod: throttling,
    });
    return run!.lhr as unknown as Lhr;
  } finally {
    chrome.kill();
  }
}

/** A category's score, 0–100. */
export const score = (lhr: Lhr, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);

export interface LighthouseMedian {
  /** The run of median performance. */
  median: Lhr;
  /** Every run, lowest performance first. */
  runs: Lhr[];
  /** Every run's performance score, lowest first. */
  performance: number[];
  /** Runs repeated because Lighthouse failed to record their trace. */
  repeated: number;
}

/**
 * Lighthouse's own advice: scores vary between runs, so report the median of several. `session`
 * (signed-in pages) is asked for anew before each run.
 */
export async function lighthouseMedian(
  url: string,
  session: (() => Promise<string>) | null,
  throttling: Throttling,
  runs: number,
): Promise<LighthouseMedian> {
  const all: Lhr[] = [];
  // Lighthouse sometimes fails to record the trace (NO_NAVSTART with this Chromium) and asks to be
  // run again: such a run is repeated (twice at most) rather than scored.
  let repeated = 0;
  for (let i = 0; i < runs; i++) {
    let lhr = await lighthouseOnce(url, session ? await session() : null, throttling);
    for (let again = 0; lhr.runtimeError && again < 2; again++, repeated++)
      lhr = await lighthouseOnce(url, session ? await session() : null, throttling);
    all.push(lhr);
  }
  all.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
  return {
    median: all[Math.floor(all.length / 2)]!,
    runs: all,
    performance: all.map((r) => score(r, 'performance')),
    repeated,
  };
}

/** Why a run measured nothing (no performance score), or null. */
export function failure(lhr: Lhr): string | null {
  if (lhr.categories.performance?.score !== null) return null;
  const failed = Object.entries(lhr.audits)
    .filter(([, a]) => a.errorMessage)
    .map(([id, a]) => `${id}: ${a.errorMessage}`);
  return lhr.runtimeError?.code ?? failed[0] ?? 'no reason given';
}

/** The audits of a category that did not pass (and count towards its score). */
export function failedAudits(lhr: Lhr, category: string): string[] {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => {
      const a = lhr.audits[ref.id];
      return a && a.score !== null && a.score < 1 && ref.weight > 0;
    })
    .map((ref) => `${ref.id} (${lhr.audits[ref.id]!.title})`);
}

/** BENCH_LH_JSON=<dir>: a run's whole report kept, to read what held a metric back. */
export function keepReport(lhr: Lhr, label: string): void {
  if (!process.env.BENCH_LH_JSON) return;
  fs.mkdirSync(process.env.BENCH_LH_JSON, { recursive: true });
  fs.writeFileSync(
    path.join(process.env.BENCH_LH_JSON, `lighthouse-${label.replace(/\W+/g, '-')}.json`),
    JSON.stringify(lhr),
  );
}
