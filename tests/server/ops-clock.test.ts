import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followOpsClock, runJob } from '../../server/jobs/index';
import { systemClock } from '../../server/lib/clock';
import { program } from '../support/process';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

describe.each(DIALECTS)('operator clock on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    // `clock:advance` writes an offset from the system time, which this clock must start on.
    if (enabled) s = await startTestServer(name, {}, { clock: systemClock() });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.skipIf(!enabled)(
    'a server following the ops clock moves forward by what `clock:advance` wrote, and config hides the row',
    async () => {
      const before = s.clock.offset();
      execFileSync(process.execPath, [...program('ops'), 'clock:advance', '2d'], {
        env: { ...process.env, DATABASE_URL: s.config.databaseUrl, LOG_LEVEL: 'silent' },
        stdio: 'pipe',
      });
      await runJob(s.deps, followOpsClock);
      expect(s.clock.offset() - before).toBe(2 * 86_400_000);
      await runJob(s.deps, followOpsClock);
      expect(s.clock.offset() - before).toBe(2 * 86_400_000);
      const config = await s.call('config');
      expect(config.body.data.map((r: { tag: string }) => r.tag)).not.toContain('clock_offset_ms');
    },
  );
});
