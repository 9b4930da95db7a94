import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

/**
 * The server project's global setup: the server and the operator's console bundled once per run
 * (as `npm run build:server` bundles what `npm start` runs), for the suites that start them as
 * processes (support/process.ts). Each start through tsx transpiled the whole server again: seconds
 * of a core per process, some fifty times a run.
 */
export interface Bundle {
  /** The server's entry (server/main.ts), bundled. */
  server: string;
  /** The operator's console (server/ops/cli.ts), bundled. */
  ops: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundle: Bundle;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<() => void> {
  // Inside the repository, so the bundle's packages resolve from its node_modules.
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(root, '.tmp', 'bundle-'));
  await build({
    entryPoints: { server: path.join(root, 'server/main.ts'), ops: path.join(root, 'server/ops/cli.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  project.provide('bundle', { server: path.join(dir, 'server.mjs'), ops: path.join(dir, 'ops.mjs') });
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
