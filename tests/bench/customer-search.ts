import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { searchCustomers } from '../../server/backoffice/customer-search';
import { loadConfig } from '../../server/config';
import { createDatabase, type Database, migrate } from '../../server/db/index';
import { createDeps, type Deps } from '../../server/deps';

/**
 * The back office's customer search over 100,000 customers, in process on a file SQLite
 * database and, with TEST_PG_URL, a fresh PostgreSQL one: customers with random 10-digit phones,
 * 60 % with a bank card, half with a real-name case (three-word names, a PAN); then 200 searches
 * of random last-four digits (after 20 to warm up), and 50 each of a whole phone spaced in its
 * +91 form, a PAN and a surname, each timed around `searchCustomers` as the route calls it.
 * Figures only, nothing asserted.
 */

export const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const FIRST = [
  'Asha',
  'Ravi',
  'Meera',
  'Arjun',
  'Priya',
  'Vikram',
  'Neha',
  'Rahul',
  'Kavya',
  'Sanjay',
  'Divya',
  'Karan',
];
const LAST = [
  'Rao',
  'Sharma',
  'Iyer',
  'Patel',
  'Kumar',
  'Nair',
  'Reddy',
  'Gupta',
  'Menon',
  'Das',
  'Joshi',
  'Bose',
];

/** A deterministic generator, so both databases hold the same customers. */
function random(seed: number) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}
const digitsOf = (r: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

async function fill(database: Database): Promise<{ phones: string[]; pans: string[] }> {
  const { db } = database;
  const r = random(40);
  const phones = new Set<string>();
  while (phones.size < CUSTOMERS) phones.add(`${6 + Math.floor(r() * 4)}${digitsOf(r, 9)}`);
  const list = [...phones];
  const pans: string[] = [];
  const at = Date.UTC(2026, 0, 1);
  const BATCH = 500;
  for (let from = 0; from < list.length; from += BATCH) {
    const slice = list.slice(from, from + BATCH);
    const ids = await db
      .insertInto('users')
      .values(
        slice.map((phone, k) => ({
          phone,
          password_hash: 'x',
          no: `B${String(10_000_000 + from + k)}`,
          img: null,
          balance: 0,
          fund_password_hash: null,
          fund_password_fails: 0,
          fund_password_locked_until: null,
          credit_score: 100,
          created_at: at + from + k,
        })),
      )
      .returning('id')
      .execute();
    const cards = ids.filter(() => r() < 0.6);
    if (cards.length)
      await db
        .insertInto('bank_cards')
        .values(
          cards.map(({ id }) => ({
            user_id: id,
            bank: 'HDFC Bank',
            branch_bank: 'Andheri East',
            bank_card: `5${digitsOf(r, 15)}`,
            bank_user: `${pick(r, FIRST)} ${pick(r, LAST)}`,
            ifsc: 'HDFC0000123',
            created_at: at,
            updated_at: at,
            status: 1,
          })),
        )
        .execute();
    const cases = ids.filter(() => r() < 0.5);
    if (cases.length)
      await db
        .insertInto('kyc')
        .values(
          cases.map(({ id }) => {
            const pan = `${Array.from({ length: 5 }, () => String.fromCharCode(65 + Math.floor(r() * 26))).join('')}${digitsOf(r, 4)}${String.fromCharCode(65 + Math.floor(r() * 26))}`;
            pans.push(pan);
            return {
              user_id: id,
              real_name: `${pick(r, FIRST)} ${pick(r, FIRST)} ${pick(r, LAST)}`,
              id_type: 'idCard',
              id_number: pan,
              id_number_img: 'a',
              id_number_img_two: 'b',
              status: 1 + Math.floor(r() * 3),
              note: null,
              created_at: at,
              updated_at: at,
            };
          }),
        )
        .execute();
  }
  return { phones: list, pans };
}

function line(label: string, ms: number[], found: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const hits = found.reduce((a, b) => a + b, 0) / found.length;
  return `    ${label.padEnd(30)} p50 ${at(0.5).toFixed(2).padStart(7)} ms · p95 ${at(0.95).toFixed(2).padStart(7)} ms · max ${sorted[sorted.length - 1]!.toFixed(2)} ms (n=${ms.length}, ${hits.toFixed(1)} hits each)`;
}

async function timed(deps: Deps, queries: string[]): Promise<{ ms: number[]; found: number[] }> {
  const ms: number[] = [];
  const found: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const hits = await searchCustomers(deps, q);
    ms.push(performance.now() - t0);
    found.push(hits.length);
  }
  return { ms, found };
}

async function run(label: string, databaseUrl: string): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl, {});
  try {
    await migrate(database);
    const t0 = performance.now();
    const { phones, pans } = await fill(database);
    // Statistics for the planner, as a database that has lived a while has them.
    await (database.dialect === 'postgres'
      ? database.pool!.query('analyze')
      : Promise.resolve(database.sqlite!.exec('analyze')));
    console.log(
      `  ${label}: ${CUSTOMERS.toLocaleString('en')} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const deps = createDeps(config, database);
    const r = random(7);
    await timed(
      deps,
      Array.from({ length: 20 }, () => digitsOf(r, 4)),
    );
    const last4 = await timed(
      deps,
      Array.from({ length: 200 }, () => digitsOf(r, 4)),
    );
    console.log(line('last 4 digits', last4.ms, last4.found));
    const spaced = await timed(
      deps,
      Array.from({ length: 50 }, () => {
        const p = pick(r, phones);
        return `+91 ${p.slice(0, 5)} ${p.slice(5)}`;
      }),
    );
    console.log(line('phone, +91 and spaced', spaced.ms, spaced.found));
    const pan = await timed(
      deps,
      Array.from({ length: 50 }, () => pick(r, pans).toLowerCase()),
    );
    console.log(line('PAN', pan.ms, pan.found));
    const surname = await timed(
      deps,
      Array.from({ length: 50 }, () => pick(r, LAST)),
    );
    console.log(line('a surname (scans names)', surname.ms, surname.found));
  } finally {
    await database.close();
  }
}

/** Both databases (PostgreSQL with TEST_PG_URL), one after the other. */
export async function benchCustomerSearch(): Promise<void> {
  console.log(
    `\nbench:backoffice — customer search over ${CUSTOMERS.toLocaleString('en')} customers (in process)`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-search-'));
  try {
    await run('SQLite', `sqlite:${path.join(dir, 'search.db')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const admin = process.env.TEST_PG_URL;
  if (!admin) {
    console.log('  PostgreSQL: skipped (set TEST_PG_URL=postgres://…/db to measure it)');
    return;
  }
  const name = `bourse_bench_search_${process.pid}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    await run('PostgreSQL', url.toString());
  } finally {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}
