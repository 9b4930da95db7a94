import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStaff } from '../../server/backoffice/staff';
import type { Database } from '../../server/db/index';
import { consoleActor, entryHash, sealOf } from '../../server/lib/audit-log';
import { verifyAuditChain } from '../../server/lib/audit-verify';
import { COMMANDS } from '../../server/ops/commands/index';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { enrolledMember, opsCall, STAFF_PASSWORD } from '../support/staff';

/**
 * The audit log proves itself, tried as someone with full write access to
 * the database but not AUDIT_KEY nor the heads file: a row inserted with a correctly recomputed
 * hash, an entry altered and the chain after it rehashed, the newest entries cut with the delete
 * trigger dropped and put back, the triggers dropped or disabled. `audit:verify` said "chain
 * unbroken" to each; now it names the forged row, the rewritten entry, the cut tail and the
 * trigger. Refused privileged attempts leave an entry each.
 */

const verifyCommand = COMMANDS.find((c) => c.name === 'audit:verify')!;

/** Turns the append-only triggers off or on, as the database's owner can. */
async function triggers(database: Database, on: boolean) {
  const { db } = database;
  if (database.dialect === 'postgres') {
    await sql.raw(`alter table audit_log ${on ? 'enable' : 'disable'} trigger user`).execute(db);
    return;
  }
  if (!on) {
    await sql`drop trigger audit_log_no_update`.execute(db);
    await sql`drop trigger audit_log_no_delete`.execute(db);
    return;
  }
  // Put back word for word, so the trigger check alone would not notice.
  await sql`create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  await sql`create trigger audit_log_no_delete before delete on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
}

async function rows(database: Database) {
  return database.db.selectFrom('audit_log').selectAll().orderBy('seq').execute();
}

describe.each(DIALECTS)('the audit log on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A fresh server with a few entries, for an attack that leaves it damaged. */
  async function damaged<T>(attack: (s: TestServer) => Promise<T>): Promise<T> {
    const t = await startTestServer(name);
    try {
      for (const login of ['asha', 'bala', 'chen', 'dev'])
        await addStaff(t.deps, consoleActor('root'), { login, role: 'support' });
      expect((await verifyAuditChain(t.deps.database)).problems).toEqual([]);
      return await attack(t);
    } finally {
      await t.close();
    }
  }

  it.runIf(enabled)(
    'finding 7: a row inserted with a correctly recomputed hash is named as forged',
    async () => {
      await damaged(async (t) => {
        const all = await rows(t.deps.database);
        const last = all[all.length - 1]!;
        const forged = {
          ...last,
          seq: last.seq + 1,
          actor_name: 'root',
          action: 'payout:approve',
          target_type: 'withdrawal',
          target_id: '77',
          before: null,
          after: JSON.stringify({ status: 'y' }),
          prev_hash: last.hash,
        };
        const { hash: _h, mac: _m, ...fields } = forged;
        const hash = entryHash(fields);
        // The MAC of another entry is all the attacker has.
        await t.deps.database.db
          .insertInto('audit_log')
          .values({ ...forged, hash, mac: last.mac })
          .execute();
        const r = await verifyAuditChain(t.deps.database);
        expect(r.brokenAt).toBe(forged.seq);
        expect(r.problems).toEqual([
          `entry ${forged.seq} has no valid MAC: it was added, or altered and rehashed, by someone without the audit key`,
        ]);
        await expect(verifyCommand.run(t.deps, [])).rejects.toThrow(
          new RegExp(`NOT proven[\\s\\S]*entry ${forged.seq} has no valid MAC`),
        );
      });
    },
  );

  it.runIf(enabled)(
    'finding 7: an entry altered and the chain after it rehashed is named, and so are the triggers turned off',
    async () => {
      await damaged(async (t) => {
        const { database } = t.deps;
        await triggers(database, false);
        const all = await rows(database);
        let prev = all[0]!.hash;
        for (const row of all.slice(1)) {
          const changed = { ...row, prev_hash: prev, actor_name: row.seq === 2 ? 'mallory' : row.actor_name };
          const { hash: _h, mac: _m, ...fields } = changed;
          const hash = entryHash(fields);
          await database.db
            .updateTable('audit_log')
            .set({ prev_hash: prev, actor_name: changed.actor_name, hash })
            .where('seq', '=', row.seq)
            .execute();
          prev = hash;
        }
        const r = await verifyAuditChain(database);
        expect(r.brokenAt).toBe(2);
        expect(r.problems.at(-1)).toBe(
          'entry 2 has no valid MAC: it was added, or altered and rehashed, by someone without the audit key',
        );
        const off = r.problems.slice(0, -1).join('\n');
        if (name === 'postgres') expect(off).toMatch(/trigger audit_log_no_change is disabled/);
        else expect(off).toMatch(/trigger audit_log_no_update is missing/);
      });
    },
  );

  it.runIf(enabled)(
    'finding 7: the newest entries deleted with the trigger off and put back are a cut tail',
    async () => {
      await damaged(async (t) => {
        const { database } = t.deps;
        const all = await rows(database);
        const newest = all[all.length - 1]!.seq;
        await triggers(database, false);
        await database.db
          .deleteFrom('audit_log')
          .where('seq', '>', newest - 3)
          .execute();
        await triggers(database, true);
        const r = await verifyAuditChain(database);
        expect(r.entries).toBe(newest - 3);
        expect(r.problems).toHaveLength(1);
        expect(r.problems[0]).toMatch(
          new RegExp(
            `^the chain ends at entry ${newest - 3}, but entry ${newest} was signed at .*: entries ${newest - 2}–${newest} were cut$`,
          ),
        );
        await expect(verifyCommand.run(t.deps, [])).rejects.toThrow(/were cut/);
      });
    },
  );

  it.runIf(enabled)('finding 7: a trigger replaced by one that lets changes through is named', async () => {
    await damaged(async (t) => {
      const { db } = t.deps.database;
      if (name === 'postgres') {
        await sql`create or replace function audit_log_append_only() returns trigger language plpgsql
          as $$ begin return old; end $$`.execute(db);
        expect((await verifyAuditChain(t.deps.database)).problems).toEqual([
          'the function audit_log_append_only was changed or is missing',
        ]);
      } else {
        await sql`drop trigger audit_log_no_delete`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log when 0
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        const [problem] = (await verifyAuditChain(t.deps.database)).problems;
        expect(problem).toMatch(/^trigger audit_log_no_delete was replaced/);
      }
    });
  });

  it.runIf(enabled)('the heads file is 0600 and a head not signed with the key is named', async () => {
    await damaged(async (t) => {
      const seal = sealOf(t.deps.database);
      expect(fs.statSync(seal.file).mode & 0o777).toBe(0o600);
      const lines = fs.readFileSync(seal.file, 'utf8').trim().split('\n');
      const head = JSON.parse(lines.at(-1)!);
      fs.appendFileSync(seal.file, `${JSON.stringify({ ...head, seq: head.seq + 5 })}\n`);
      const r = await verifyAuditChain(t.deps.database);
      expect(r.problems).toEqual([
        `1 line(s) of the heads file ${seal.file} are not signed by the audit key`,
      ]);
      expect(r.signedHead?.seq).toBe(head.seq);
    });
  });

  it.runIf(enabled)(
    'finding 7: refused privileged attempts leave entries: 403s, wrong staff codes, failed sign-ins',
    async () => {
      const support = await enrolledMember(s, 'support');
      const payments = await enrolledMember(s, 'payments');
      const since = (await rows(s.deps.database)).length;
      // A role without the capability.
      expect((await opsCall(s, 'payoutPay', support.token, { id: 42 })).status).toBe(403);
      // A capability without a fresh second factor.
      s.clock.advance(s.config.ops.stepUpMs + 1);
      expect((await opsCall(s, 'payoutPay', payments.token, { id: 43 })).body.data).toBe('ops.errors.stepUp');
      // A wrong code, a wrong password, an unknown login.
      expect((await opsCall(s, 'verify', payments.token, { code: '000000' })).body.msg).toBe('no');
      expect(
        (await opsCall(s, 'login', null, { login: support.login, password: 'wrong password!' })).status,
      ).toBe(401);
      expect(
        (await opsCall(s, 'login', null, { login: 'nobody.here', password: STAFF_PASSWORD })).status,
      ).toBe(401);
      const added = (await rows(s.deps.database)).slice(since);
      expect(added.map((e) => [e.action, e.actor, e.reason, e.after && JSON.parse(e.after).id])).toEqual([
        ['denied:payoutPay', `staff:${support.id}`, 'ops.errors.forbidden', 42],
        ['denied:payoutPay', `staff:${payments.id}`, 'ops.errors.stepUp', 43],
        ['staff:factorFailed', `staff:${payments.id}`, 'errors.codeWrong', undefined],
        ['staff:signInFailed', `staff:${support.id}`, 'ops.errors.signIn', undefined],
        ['staff:signInFailed', 'unknown', 'ops.errors.signIn', undefined],
      ]);
      expect(JSON.parse(added[4]!.after!)).toMatchObject({ login: 'nobody.here' });
      expect((await verifyAuditChain(s.deps.database)).problems).toEqual([]);
    },
  );
});
