import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

describe('configuration', () => {
  it('reads relative folders from where the server was started (the static files need an absolute root)', () => {
    const config = loadConfig({ DIST_DIR: 'dist', UPLOADS_DIR: './data/uploads' });
    expect(config.distDir).toBe(path.resolve('dist'));
    expect(config.uploadsDir).toBe(path.resolve('data/uploads'));
    expect(loadConfig({ DIST_DIR: '/srv/app' }).distDir).toBe('/srv/app');
  });

  it('refuses an API base that would make every page an API answer', () => {
    expect(loadConfig({ API_BASE: '/v1/api' }).apiBase).toBe('/v1/api');
    for (const base of ['', '/', 'api', '/api/'])
      expect(() => loadConfig({ API_BASE: base }), JSON.stringify(base)).toThrow(/API_BASE/);
  });
});
