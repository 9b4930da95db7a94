import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, productionRefusal, startBanner } from '../../server/config';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * Issue 12, production mode: NODE_ENV=production refuses to start while a demo default is in force,
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
  FACTOR_KEY: Buffer.alloc(32, 7).toString('base64'),
  WEBAUTHN_RP_ID: 'bourse.example',
  WEBAUTHN_ORIGINS: 'https://bourse.example',
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
    ['no relying party for passkeys', { WEBAUTHN_ORIGINS: '' }, 'WEBAUTHN_RP_ID='],
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

  it('the real server exits with the message before touching a database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-prod-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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
