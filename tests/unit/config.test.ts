import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

describe('configuration', () => {
  it("names the back office's public address: OPS_PUBLIC_URL, else the site's first origin, never a port guess", () => {
    expect(loadConfig({}).ops.publicUrl).toBeNull();
    expect(
      loadConfig({ PORT: '8080', WEBAUTHN_ORIGINS: 'https://bourse.example/, https://m.bourse.example' }).ops
        .publicUrl,
    ).toBe('https://bourse.example');
    expect(
      loadConfig({
        WEBAUTHN_ORIGINS: 'https://bourse.example',
        OPS_PUBLIC_URL: 'https://ops.bourse.example//',
      }).ops.publicUrl,
    ).toBe('https://ops.bourse.example');
  });

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

  it('reads CLOCK_START as an instant, or as the instant a real time read (one clock for a cluster)', () => {
    const at = Date.UTC(2026, 10, 25, 5, 0, 0);
    expect(loadConfig({ CLOCK_START: new Date(at).toISOString() }).clockStart).toBe(at);
    const anchor = Date.now() - 60_000;
    const started = loadConfig({ CLOCK_START: `${at}@${anchor}` }).clockStart!;
    // A minute after the anchor the clock reads a minute after the instant, whenever this one starts.
    expect(started - at).toBeGreaterThanOrEqual(60_000);
    expect(started - at).toBeLessThan(70_000);
    for (const bad of ['tomorrow', `${at}@soon`, `${at}@${Date.now() + 60_000}`])
      expect(() => loadConfig({ CLOCK_START: bad }), bad).toThrow(/CLOCK_START/);
  });
});
