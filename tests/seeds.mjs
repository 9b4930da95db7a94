#!/usr/bin/env node
/**
 * `npm run test:seeds [N]` (nightly): the property tests — the files that draw their seed from
 * tests/support/seed.ts — N times (default 20), each with a fresh PROPERTY_SEED, printed. Stops at
 * the first failing seed and prints how to replay it. CI runs them on one pinned seed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const times = Math.max(1, Number(process.argv[2]) || 20);
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : /\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
const files = walk(path.join(root, 'tests')).filter((f) => {
  const text = fs.readFileSync(f, 'utf8');
  return /propertySeed\(/.test(text) || /from 'fast-check'/.test(text);
});
console.log(
  `${files.length} property test files, ${times} seeds:\n  ${files.map((f) => path.relative(root, f)).join('\n  ')}`,
);
for (let i = 1; i <= times; i++) {
  const seed = String(Math.floor(Math.random() * 2 ** 31));
  console.log(`\n── seed ${i}/${times}: PROPERTY_SEED=${seed}`);
  const run = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PROPERTY_SEED: seed, CI: '', DATABASE_URL: '' },
  });
  if (run.status !== 0) {
    console.log(
      `\nseed ${seed} failed: PROPERTY_SEED=${seed} npx vitest run ${files.map((f) => path.relative(root, f)).join(' ')}`,
    );
    process.exit(1);
  }
}
console.log(`\n${times} seeds passed`);
