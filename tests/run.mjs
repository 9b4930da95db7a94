#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in order, on a fresh machine.
 *   typecheck · lint+format · unit/dom/server tests (SQLite and PostgreSQL) · build · Playwright e2e
 *   (Chromium) · the Firefox and WebKit journeys (e2e/engines)
 * It installs Debian's Chromium, firefox-esr, webkit2gtk-driver and xvfb when missing (as root), probes PostgreSQL (TEST_PG_URL — the one
 * variable every runner uses for it, .ci/run included; default the local server's `test` database)
 * and says loudly when that suite is skipped. The summary gives each runner's time; the last line is
 * `N passed, N failed`, summed over every runner.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = [];
const started = Date.now();

/** How long the last `run` took, in seconds (each runner's time is printed in the summary). */
let lastSeconds = 0;

function run(label, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n━━ ${label} ━━ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  lastSeconds = (Date.now() - t0) / 1000;
  console.log(`   ${label}: exit ${r.status ?? r.signal} in ${lastSeconds.toFixed(1)} s`);
  return r.status === 0;
}

function record(name, passed, failed, skipped = 0, note = '', seconds = lastSeconds) {
  results.push({ name, passed, failed, skipped, note, seconds });
}

/**
 * Debian's Firefox ESR, WebKitGTK's WebDriver (with MiniBrowser) and Xvfb for the Firefox and
 * WebKit journeys (e2e/engines): Playwright cannot download its own builds of those here.
 */
function ensureEngines() {
  const needed = [
    ['firefox-esr', '/usr/bin/firefox-esr'],
    ['webkit2gtk-driver', '/usr/bin/WebKitWebDriver'],
    ['xvfb', '/usr/bin/xvfb-run'],
  ].filter(([, file]) => !fs.existsSync(file));
  if (needed.length === 0) return true;
  const names = needed.map(([pkg]) => pkg);
  if (process.getuid?.() !== 0) {
    console.error(`\n!! Missing ${names.join(', ')} (not root): apt-get install -y ${names.join(' ')}`);
    return false;
  }
  console.log(`Installing Debian's ${names.join(', ')}…`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => run('apt-get install engines', 'apt-get', ['install', '-y', '-qq', ...names], env);
  return install() || (run('apt-get update', 'apt-get', ['update', '-qq']) && install());
}

function ensureChromium() {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chrome)) return chrome;
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium package…");
    let ok = run('apt-get install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], {
      DEBIAN_FRONTEND: 'noninteractive',
    });
    if (!ok) {
      run('apt-get update', 'apt-get', ['update', '-qq']);
      ok = run('apt-get install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], {
        DEBIAN_FRONTEND: 'noninteractive',
      });
    }
    if (ok && fs.existsSync(chrome)) return chrome;
  }
  console.error(
    `\n!! Chromium not found at ${chrome} and could not be installed (not root?). Install it: apt-get install -y chromium`,
  );
  return null;
}

/**
 * PostgreSQL's client tools (pg_dump, pg_restore) for the backup suite: Debian's postgresql-client,
 * installed when missing (as root). Without them that suite reports itself skipped, loudly.
 */
function ensurePgClient() {
  const found = [
    '/usr/bin',
    ...(fs.existsSync('/usr/lib/postgresql')
      ? fs.readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ].some((dir) => fs.existsSync(path.join(dir, 'pg_dump')));
  if (found) return true;
  if (process.getuid?.() !== 0) {
    console.error('\n!! pg_dump is missing (not root): apt-get install -y postgresql-client');
    return false;
  }
  console.log("pg_dump is missing: installing Debian's postgresql-client…");
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    run('apt-get install postgresql-client', 'apt-get', ['install', '-y', '-qq', 'postgresql-client'], env);
  return install() || (run('apt-get update', 'apt-get', ['update', '-qq']) && install());
}

async function probePostgres(url) {
  try {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.query('select 1');
    await client.end();
    return true;
  } catch (err) {
    console.log(`   PostgreSQL probe failed: ${err.message}`);
    return false;
  }
}

// 1. Typecheck and lint.
record('typecheck', ...(run('typecheck', bin('tsc'), ['--noEmit', '-p', '.']) ? [1, 0] : [0, 1]));
record('lint + format (biome)', ...(run('lint', bin('biome'), ['check', '.']) ? [1, 0] : [0, 1]));

// 2. Vitest: unit, dom, server on SQLite and PostgreSQL.
const pgUrl = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const pgUp = await probePostgres(pgUrl);
if (pgUp) ensurePgClient();
if (!pgUp) {
  console.log(`\n${'!'.repeat(78)}`);
  console.log(`!!  PostgreSQL is NOT reachable at ${pgUrl.replace(/\/\/[^@]*@/, '//***@')}`);
  console.log('!!  The PostgreSQL server suite is SKIPPED (reported as skipped, not passed).');
  console.log('!!  Set TEST_PG_URL=postgres://… to run it.');
  console.log('!'.repeat(78));
}
const vitestJson = path.join(tmp, 'vitest.json');
fs.rmSync(vitestJson, { force: true });
run(
  'vitest',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  {
    TEST_PG_URL: pgUp ? pgUrl : '',
    // Server tests own their databases; the app's DATABASE_URL must not leak into them.
    DATABASE_URL: '',
  },
);
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  const failedSuites =
    v.testResults?.filter((f) => f.status === 'failed' && (f.assertionResults?.length ?? 0) === 0).length ??
    0;
  record(
    'vitest (unit, dom, server)',
    v.numPassedTests,
    v.numFailedTests + failedSuites,
    v.numPendingTests + v.numTodoTests,
    pgUp ? '' : 'PostgreSQL suite skipped',
  );
} else record('vitest (unit, dom, server)', 0, 1, 0, 'no report');

// 3. Build the PWA, then drive it end to end.
const built = run('build', 'npm', ['run', '--silent', 'build']);
record('build', built ? 1 : 0, built ? 0 : 1);
const chrome = ensureChromium();
if (built && chrome) {
  const pwJson = path.join(tmp, 'playwright.json');
  fs.rmSync(pwJson, { force: true });
  const e2eDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));
  run('e2e (playwright)', bin('playwright'), ['test', '-c', 'e2e'], {
    E2E_DIR: e2eDir,
    PW_JSON_OUTPUT: pwJson,
    CHROME_PATH: chrome,
  });
  printFailureContexts(path.join(e2eDir, 'results'));
  if (fs.existsSync(pwJson)) {
    const s = JSON.parse(fs.readFileSync(pwJson, 'utf8')).stats ?? {};
    const globalErrors = JSON.parse(fs.readFileSync(pwJson, 'utf8')).errors?.length ?? 0;
    record(
      'e2e (playwright, chromium 390×844)',
      s.expected ?? 0,
      (s.unexpected ?? 0) + (s.flaky ?? 0) + globalErrors,
      s.skipped ?? 0,
    );
  } else record('e2e (playwright, chromium 390×844)', 0, 1, 0, 'no report');
} else record('e2e (playwright, chromium 390×844)', 0, 1, 0, chrome ? 'build failed' : 'no chromium');

// 4. The same user journey in Firefox and WebKit (e2e/engines), each on its own server.
const engines = built && ensureEngines();
for (const engine of ['firefox', 'webkit']) {
  const label = `e2e ${engine} journey`;
  if (!engines) {
    record(label, 0, 1, 0, built ? 'browser not installed' : 'build failed', 0);
    continue;
  }
  const ok = run(label, process.execPath, ['--import', 'tsx', 'e2e/engines/main.ts', engine]);
  record(label, ok ? 1 : 0, ok ? 0 : 1, 0, '', lastSeconds);
}

/**
 * A failed journey's page as Playwright last saw it (its accessibility snapshot), printed where a
 * CI log shows it: the screenshot stays on the machine that ran it.
 */
function printFailureContexts(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    const file = path.join(dir, entry, 'error-context.md');
    if (!fs.existsSync(file)) continue;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    console.log(`\n── page at failure: ${entry} ──`);
    console.log(lines.slice(0, 80).join('\n'));
    if (lines.length > 80) console.log(`… ${lines.length - 80} more lines in ${file}`);
  }
}

// Summary.
console.log('\n━━ summary ━━');
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(38)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped ${r.seconds.toFixed(0).padStart(5)} s  ${r.note}`,
  );
}
if (!pgUp) console.log('  !! PostgreSQL suite SKIPPED: no server reachable');
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`  total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
