import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Engine, firefox, webkit } from './drivers';
import { journey } from './journey';
import { startServer } from './server';

/**
 * `node --import tsx e2e/engines/main.ts firefox|webkit`: the journey (journey.ts) in one engine on
 * the real built app and server (run `npm run build` first), its own server on a temporary
 * database at E2E_PORT + 20 (Firefox) or + 30 (WebKit). Prints each step's time and the requests
 * that reached the server on Home; exits 1 on a failure. `E2E_SCREENS=<dir>` keeps a screenshot of
 * every step. tests/run.mjs runs both in `npm test`.
 */
/** An iPhone's Safari: the app's iOS workarounds apply to WebKit's journey as on a phone. */
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

const name = process.argv[2];
if (name !== 'firefox' && name !== 'webkit') {
  console.error('usage: main.ts firefox|webkit');
  process.exit(2);
}
const base = Number(process.env.E2E_PORT ?? 4317);
const port = base + (name === 'firefox' ? 20 : 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bourse-${name}-`));
const screens = process.env.E2E_SCREENS;
const shots = screens ? path.resolve(screens === '1' ? 'e2e/.screens' : screens) : undefined;
if (shots) fs.mkdirSync(shots, { recursive: true });

const started = Date.now();
let engine: Engine | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
// Stopped from outside (a runner's timeout, ^C): the browser and the server go too. A browser left
// behind keeps polling the port, and the next run's server on it took its requests for its own.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    console.error(`${name} journey: ${signal}, closing the browser and the server`);
    void Promise.allSettled([engine?.close(), server?.stop()]).finally(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(1);
    });
  });
server = await startServer({ port, dir });
let failed = false;
try {
  engine = name === 'firefox' ? await firefox() : await webkit({ userAgent: IPHONE });
  console.log(`${name}: window ${engine.width} px wide`);
  const report = await journey(engine, server, {
    shots,
    ios: name === 'webkit',
    twoFactor: name === 'webkit',
  });
  for (const s of report.steps) console.log(`  ✓ ${s.step} (${(s.ms / 1000).toFixed(1)} s)`);
  console.log(`  notification settings: ${report.notifications}`);
  console.log(
    `  requests of the journey's session on Home in ${(report.homeWindowMs / 1000).toFixed(1)} s (count · shortest gap)` +
      (report.homeStrangers ? `, besides ${report.homeStrangers} of other sessions (not counted):` : ':'),
  );
  for (const p of report.homePolls)
    console.log(
      `    ${String(p.count).padStart(3)} · ${Number.isFinite(p.minGapMs) ? `${(p.minGapMs / 1000).toFixed(2)} s` : '—'}  ${p.request}`,
    );
} catch (err) {
  failed = true;
  console.error(`  ✗ ${(err as Error).message}`);
} finally {
  await engine?.close().catch(() => {});
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(
  `${name} journey: ${failed ? 'failed' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(failed ? 1 : 0);
