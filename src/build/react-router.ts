import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * React Router's production build in the app's bundle. Its package.json sends every import to its
 * development build (remix-run/react-router#12532, "temporary" since 7.0.2): dev-only warnings and
 * checks that run on every navigation and render. The production build is the same API from the
 * same version, without them. Tests and the dev server keep the development build.
 */
export function reactRouterProduction(): Plugin {
  const dir = path.resolve('node_modules/react-router/dist/production');
  const files: Record<string, string> = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };
  return {
    name: 'bourse-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      const file = files[source];
      return file ? path.join(dir, file) : null;
    },
  };
}
