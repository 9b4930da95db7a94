import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the bench's busy screen (tests/bench/busy) with the app's own modules, outside the product. */
const root = path.resolve(import.meta.dirname, '../..');
export default defineConfig({
  root,
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: path.join(root, '.tmp/bench-dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: { input: { busy: path.join(root, 'tests/bench/busy/index.html') } },
  },
  worker: { format: 'es' },
});
