import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pgClient from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, productionRefusal, startBanner } from '../../server/config';
import { program } from '../support/process';
import { DIALECTS, freshPgDatabase, startTestServer, type TestServer } from '../support/server';

/**
 * Production mode: NODE_ENV=production refuses to start while a demo default is in force,
 * naming what to set; turns HSTS on; ends sessions left idle as well as old ones; prints no
 * credentials. `npm start` stays the zero-configuration demo.
 */

const READY = {
  NODE_ENV: 'production',
  DEMO_USER: '0',
  INVITE_CODE: 'Q7-private-code',
  SANDBOX_SETTLE_MS: '-1',
  MARKET_PROVIDER: 'simulator',
  MARKET_SEED: '913577',
  // Random keys made for this test only (openssl rand -base64 32): a pattern is refused.
  FACTOR_KEY: '3dVcfKSEQv5KmHoqyisDqGozyZDMtQwq213bpLsmonA=',
  AUDIT_KEY: 'LXMiA+2Hh0t1+/6aSuL2u77q4oqgL28bglP+um78Zy0=',
  WEBAUTHN_RP_ID: 'bourse.example',
  WEBAUTHN_ORIGINS: 'https://bourse.example',
  // A pair made for this test only (npx web-push generate-vapid-keys makes one).
  VAPID_PUBLIC_KEY: 'BC6ApiHkiuDnf0fDHkx_7Xqwz1uxYRzd2xmTmP54N1VG78oqSHPHsOM4hvGMZrN0jGlDA45pFGuHlu6JlBE6Ckg',
  VAPID_PRIVATE_KEY: 'HrrnmCpwMenzYhZ8moiAx5dhXtmxd9WdF3d9tETjFV0',
  VAPID_SUBJECT: 'mailto:ops@bourse.example',
};

describe('production refusal', () => {
  it('names every demo default in force, each with what to set', () => {
    const refusal = productionRefusal(loadConfig({ NODE_ENV: 'production' }));
    expect(refusal).toMatch(/^Bourse refuses to start: NODE_ENV=production/);
    for (const want of ['DEMO_USER=0', 'INVITE_CODE=', 'SANDBOX_SETTLE_MS=-1', 'MARKET_PROVIDER=']) {
      expect(refusal).toContain(want);
    }
  });

  it.each([
    ['the demo account', { DEMO_USER: '1' }, 'DEMO_USER=0'],
    ['the default invitation code', { INVITE_CODE: 'BOURSE26' }, 'INVITE_CODE='],
    ['the auto-settling sandbox rail', { SANDBOX_SETTLE_MS: '30000' }, 'SANDBOX_SETTLE_MS=-1'],
    ['the simulator on its public seed', { MARKET_SEED: '20260101' }, 'MARKET_SEED='],
    ['a simulator not chosen explicitly', { MARKET_PROVIDER: '' }, 'MARKET_PROVIDER='],
    ['the demo factor key', { FACTOR_KEY: '' }, 'FACTOR_KEY='],
    ['the demo audit key', { AUDIT_KEY: '' }, 'AUDIT_KEY='],
    ['no relying party for passkeys', { WEBAUTHN_ORIGINS: '' }, 'WEBAUTHN_RP_ID='],
    ['the demo VAPID key pair', { VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '' }, 'VAPID_PUBLIC_KEY='],
    ['no VAPID subject', { VAPID_SUBJECT: '' }, 'VAPID_SUBJECT='],
    ['pushes to the loopback', { PUSH_LOOPBACK: '1' }, 'PUSH_LOOPBACK=0'],
  ])('refuses %s alone', (_what, change, want) => {
    const refusal = productionRefusal(loadConfig({ ...READY, ...change }));
    expect(refusal).toContain(want);
    expect(refusal?.split('\n')).toHaveLength(2);
  });

  it('starts when everything is chosen, and the demo never refuses', () => {
    expect(productionRefusal(loadConfig(READY))).toBeNull();
    expect(productionRefusal(loadConfig({}))).toBeNull();
    expect(loadConfig(READY).sessionIdleMs).toBe(30 * 60 * 1000);
    expect(loadConfig({}).sessionIdleMs).toBe(0);
  });

  it('refuses a VAPID key of the wrong shape, or a public key that is not the private key’s', () => {
    expect(() => loadConfig({ ...READY, VAPID_PRIVATE_KEY: '' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...READY, VAPID_PUBLIC_KEY: 'not-a-key' })).toThrow(/VAPID_PUBLIC_KEY/);
    const other = Buffer.alloc(32, 9).toString('base64url');
    expect(() => loadConfig({ ...READY, VAPID_PRIVATE_KEY: other })).toThrow(/not the public key/);
    expect(loadConfig(READY).push.vapid?.publicKey).toBe(READY.VAPID_PUBLIC_KEY);
    expect(() => loadConfig({ PUSH_SERVICE_HOSTS: 'fcm.googleapis.com,http://evil' })).toThrow(
      /PUSH_SERVICE_HOSTS/,
    );
  });

  it('the real server exits with the message before touching a database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-prod-'));
    try {
      const run = spawnSync(process.execPath, program('server'), {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATABASE_URL: `sqlite:${path.join(dir, 'p.db')}`,
          PORT: '0',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('DEMO_USER=0');
      expect(run.stderr).toContain('SANDBOX_SETTLE_MS=-1');
      expect(fs.existsSync(path.join(dir, 'p.db'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it('the start banner prints credentials in the demo only', () => {
    const demo = startBanner(loadConfig({}), 120);
    expect(demo).toContain('Invitation code: BOURSE26');
    expect(demo).toContain('Demo login:      9876543210 / demo1234');
    const prod = startBanner(loadConfig({ ...READY, DATABASE_URL: 'postgres://app:s3cret@db/bourse' }), 120);
    expect(prod).toContain('Bourse is running at');
    expect(prod).not.toContain('Q7-private-code');
    expect(prod).not.toContain('Invitation');
    expect(prod).not.toContain('s3cret');
  });
});

/** What the process printed was messages, not a stack trace. */
const expectNoStack = (stderr: string) => {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/Error:|node:internal/);
};

describe('production refuses weak settings', () => {
  it.each([
    ['cheap password hashes', { SCRYPT_N: '16384' }, 'SCRYPT_N=131072 or more'],
    ['2FA off', { REQUIRE_2FA: '0' }, 'REQUIRE_2FA=1'],
    ['KYC off', { REQUIRE_KYC: '0' }, 'REQUIRE_KYC=1'],
    ['sessions never idle out', { SESSION_IDLE_MS: '0' }, 'SESSION_IDLE_MS between'],
    ['a day-long idle limit', { SESSION_IDLE_MS: String(24 * 3600_000) }, 'SESSION_IDLE_MS between'],
    ['a ten-year token', { TOKEN_TTL_MS: String(10 * 365 * 86_400_000) }, 'TOKEN_TTL_MS='],
    ['a million password guesses', { LOGIN_LIMIT_PHONE: '1000000' }, 'LOGIN_LIMIT_PHONE between'],
    ['an address limit no one reaches', { LOGIN_LIMIT_ADDRESS: '1000000' }, 'LOGIN_LIMIT_ADDRESS between'],
    ['a one-second window', { LOGIN_LIMIT_WINDOW_MS: '1000' }, 'LOGIN_LIMIT_WINDOW_MS='],
    ['a hundred code guesses', { FACTOR_LIMIT_ACCOUNT: '100' }, 'FACTOR_LIMIT_ACCOUNT='],
    ['a one-minute code window', { FACTOR_LIMIT_WINDOW_MS: '60000' }, 'FACTOR_LIMIT_WINDOW_MS='],
    ['an http passkey origin', { WEBAUTHN_ORIGINS: 'http://bourse.example' }, 'https:// origins only'],
    ['an http CORS origin', { CORS_ORIGINS: 'http://shell.example' }, 'https:// origins only'],
    ['http enrolment links', { OPS_PUBLIC_URL: 'http://ops.bourse.example' }, 'OPS_PUBLIC_URL=https'],
    ['an all-zero FACTOR_KEY', { FACTOR_KEY: Buffer.alloc(32).toString('base64') }, 'FACTOR_KEY='],
    ['a patterned AUDIT_KEY', { AUDIT_KEY: Buffer.alloc(32, 9).toString('base64') }, 'AUDIT_KEY='],
    ['one key for both', { AUDIT_KEY: READY.FACTOR_KEY }, 'AUDIT_KEY different from FACTOR_KEY'],
    ['metrics on every network', { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }, 'METRICS_HOST=127.0.0.1'],
    ['a year-long step-up', { OPS_STEP_UP_MS: String(365 * 86_400_000) }, 'OPS_STEP_UP_MS='],
    ['maker-checker above any payout', { PAYOUT_APPROVAL_ABOVE: '999999999' }, 'PAYOUT_APPROVAL_ABOVE='],
    ['maker-checker above any loan', { LOAN_APPROVAL_ABOVE: '999999999' }, 'LOAN_APPROVAL_ABOVE='],
  ])('finding 10: refuses %s alone, in one line saying what to set', (_what, change, want) => {
    const refusal = productionRefusal(loadConfig({ ...READY, ...change }));
    expect(refusal).toContain(want);
    expect(refusal?.split('\n')).toHaveLength(2);
    // The demo runs with it: the floors are production's.
    expect(productionRefusal(loadConfig(change))).toBeNull();
  });

  it('finding 10: the issue’s weakened production is refused line by line', () => {
    const weakened = {
      ...READY,
      SCRYPT_N: '1024',
      REQUIRE_2FA: '0',
      REQUIRE_KYC: '0',
      SESSION_IDLE_MS: '0',
      TOKEN_TTL_MS: String(10 * 365 * 86_400_000),
      LOGIN_LIMIT_PHONE: '1000000',
      WEBAUTHN_ORIGINS: 'http://bourse.example',
      FACTOR_KEY: Buffer.alloc(32).toString('base64'),
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      OPS_STEP_UP_MS: String(365 * 86_400_000),
      PAYOUT_APPROVAL_ABOVE: '999999999',
    };
    const lines = productionRefusal(loadConfig(weakened))!.split('\n').slice(1);
    for (const variable of [
      'SCRYPT_N',
      'REQUIRE_2FA',
      'REQUIRE_KYC',
      'SESSION_IDLE_MS',
      'TOKEN_TTL_MS',
      'LOGIN_LIMIT_PHONE',
      'WEBAUTHN_ORIGINS',
      'FACTOR_KEY',
      'METRICS_HOST',
      'OPS_STEP_UP_MS',
      'PAYOUT_APPROVAL_ABOVE',
    ])
      expect(
        lines.filter((l) => l.trimStart().startsWith(variable)),
        variable,
      ).toHaveLength(1);
  });

  it('finding 10: 2FA, KYC and open metrics only by naming them in I_UNDERSTAND_WEAK_SETTINGS, then the banner says so', () => {
    const weak = { ...READY, REQUIRE_KYC: '0', METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' };
    const accepted = loadConfig({ ...weak, I_UNDERSTAND_WEAK_SETTINGS: 'REQUIRE_KYC, METRICS_HOST' });
    expect(productionRefusal(accepted)).toBeNull();
    const banner = startBanner(accepted, 100);
    expect(banner).toMatch(/Weakened: +REQUIRE_KYC=0 .*I_UNDERSTAND_WEAK_SETTINGS/);
    expect(banner).toMatch(/Weakened: +METRICS_HOST=0\.0\.0\.0 /);
    expect(startBanner(loadConfig(READY), 100)).not.toContain('Weakened');
    // Naming one does not accept the other; a floor cannot be named at all.
    expect(productionRefusal(loadConfig({ ...weak, I_UNDERSTAND_WEAK_SETTINGS: 'REQUIRE_KYC' }))).toContain(
      'METRICS_HOST=127.0.0.1',
    );
    const floor = productionRefusal(
      loadConfig({ ...READY, SCRYPT_N: '1024', I_UNDERSTAND_WEAK_SETTINGS: 'SCRYPT_N' }),
    );
    expect(floor).toContain('SCRYPT_N cannot be weakened on purpose');
    expect(floor).toContain('SCRYPT_N=131072 or more');
  });

  it('finding 10: SCRYPT_N that scrypt cannot take is a clear config error in any mode', () => {
    for (const bad of ['2', '16', '3', '100000', String(2 ** 21), 'fast'])
      expect(() => loadConfig({ SCRYPT_N: bad }), bad).toThrow(/SCRYPT_N=.*power of two/);
    expect(loadConfig({ SCRYPT_N: '1024' }).scrypt.N).toBe(1024);
    expect(loadConfig({}).scrypt.N).toBe(2 ** 17);
  });
});

describe.each(DIALECTS)(
  'the real server refuses bad settings without a stack trace on $name',
  ({ name, enabled }) => {
    /** Runs server/main.ts against a database of this dialect; answers its exit and what it printed. */
    async function start(env: Record<string, string>) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-prod-'));
      const pg = name === 'postgres' ? await freshPgDatabase() : null;
      const file = path.join(dir, 'p.db');
      try {
        const run = spawnSync(process.execPath, program('server'), {
          cwd: path.resolve(import.meta.dirname, '../..'),
          env: { ...process.env, DATABASE_URL: pg ? pg.url : `sqlite:${file}`, PORT: '0', ...env },
          encoding: 'utf8',
          timeout: 30_000,
        });
        // Nothing was created: the refusal came before the database was opened.
        let touched = fs.existsSync(file);
        if (pg) {
          const client = new pgClient.Client({ connectionString: pg.url });
          await client.connect();
          const tables = await client.query(
            "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
          );
          await client.end();
          touched = tables.rows[0].n > 0;
        }
        return { status: run.status, stderr: run.stderr, touched };
      } finally {
        await pg?.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }

    it.runIf(enabled)(
      'finding 10: SCRYPT_N=2 stops the start with one line, not a stack trace',
      async () => {
        const run = await start({ SCRYPT_N: '2' });
        expect(run.status).toBe(1);
        expect(run.stderr.trim()).toMatch(
          /^Bourse refuses to start: SCRYPT_N=2: scrypt's cost is a power of two/,
        );
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expectNoStack(run.stderr);
        expect(run.touched).toBe(false);
      },
      40_000,
    );

    it.runIf(enabled)(
      'finding 10: a weakened production stops with one line per setting, before the database',
      async () => {
        const run = await start({ ...READY, SCRYPT_N: '16384', REQUIRE_KYC: '0', TRUST_PROXY: '' });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain('SCRYPT_N=131072 or more');
        expect(run.stderr).toContain('REQUIRE_KYC=1');
        expectNoStack(run.stderr);
        expect(run.touched).toBe(false);
        const bad = await start({ TRUST_PROXY: 'true' });
        expect(bad.status).toBe(1);
        expect(bad.stderr).toMatch(/^Bourse refuses to start: TRUST_PROXY=true/);
        expectNoStack(bad.stderr);
      },
      60_000,
    );
  },
);

describe.each(DIALECTS)('production sessions and headers on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled)
      s = await startTestServer(name, {
        ...READY,
        SESSION_IDLE_MS: String(10 * 60_000),
        TOKEN_TTL_MS: String(3_600_000),
      });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)('sends HSTS', async () => {
    const res = await s.call('balance', {});
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it.runIf(enabled)('ends a session left idle, and keeps one in use until its absolute end', async () => {
    const idle = await s.signUp();
    const busy = await s.signUp();
    // Used every 9 minutes the busy session lives on; the idle one ends after 10 unused minutes.
    for (let i = 0; i < 6; i++) {
      s.clock.advance(9 * 60_000);
      expect((await s.call('balance', { token: busy.token })).body.msg, `after ${(i + 1) * 9} min`).toBe(
        'ok',
      );
    }
    const gone = await s.call('balance', { token: idle.token });
    expect(gone.status).toBe(401);
    expect(gone.body.msg).toBe('logout');
    // 54 minutes in use; the absolute hour ends it whatever its use.
    s.clock.advance(7 * 60_000);
    const old = await s.call('balance', { token: busy.token });
    expect(old.status).toBe(401);
  });
});
