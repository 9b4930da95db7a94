import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';
import { backOfficeOnly } from './checks';
import { precompress } from './compression';
import { reactRouterProduction } from './react-router';

/** `vite build --mode ops`: the back office's build. */
export const OPS_MODE = 'ops';

/**
 * The back office (`vite build --mode ops`): its own entry (src/backoffice/index.html),
 * its own chunks in dist/ops, served by the server at /ops/ under a policy of its own. A build of
 * its own, so nothing of it touches the app's chunks or service worker.
 */
export function backOfficeBuild(): UserConfig {
  return {
    root: path.resolve('src/backoffice'),
    base: '/ops/',
    publicDir: false,
    plugins: [react(), reactRouterProduction(), backOfficeOnly(), precompress()],
    build: {
      outDir: path.resolve('dist/ops'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
    },
    server: { port: 5174, proxy: { '/api': 'http://localhost:8080' } },
  };
}
