import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Notice, noticeKeys } from '#shared/notices';

/** A security notice's body names where its event came from: the device and the server's address. */
describe('security notice text', () => {
  const notice = (params: Record<string, string | number>): Notice => ({
    kind: 'security',
    symbol: '',
    params: { event: 'newDevice', ...params },
  });

  it('names the device and the address, with or without amounts', () => {
    for (const amounts of [true, false])
      expect(
        noticeKeys(notice({ device: 'Chrome on Android', address: '203.0.113.7' }), amounts).body,
      ).toEqual({
        key: 'watch.inbox.security.bodyFrom',
        params: { from: 'Chrome on Android · 203.0.113.7' },
      });
  });

  it('names the device alone without an address, and nothing for a notice of before', () => {
    expect(noticeKeys(notice({ device: 'Safari on iPhone' }), true).body.params).toEqual({
      from: 'Safari on iPhone',
    });
    expect(noticeKeys(notice({}), true).body).toEqual({ key: 'watch.inbox.security.body', params: {} });
  });
});

/**
 * A change staff made (server/account/controls.ts, `staff: 1`) says what happened and what
 * it means for the customer, in each of the four languages — never "Not you? Change your password".
 */
describe('staff security notices', () => {
  const LANGS = ['en', 'zh', 'es', 'de'] as const;
  const EVENTS = [
    'accountFrozen',
    'accountUnfrozen',
    'sessionsEnded',
    'factorReset',
    'staffPasswordReset',
  ] as const;
  const watch = (lang: string) =>
    JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `../../locales/${lang}/watch.json`), 'utf8'));
  const at = (tree: unknown, key: string) =>
    key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tree);

  it('has a title and its own body for each event in every language', () => {
    for (const event of EVENTS) {
      const { title, body } = noticeKeys({ kind: 'security', symbol: '', params: { event, staff: 1 } }, true);
      expect(body.key).toBe(`watch.inbox.security.staffBody.${event}`);
      for (const lang of LANGS) {
        const tree = watch(lang);
        expect(typeof at(tree, title.key), `${lang} ${title.key}`).toBe('string');
        expect(typeof at(tree, body.key), `${lang} ${body.key}`).toBe('string');
        expect(at(tree, body.key)).not.toBe(at(tree, 'watch.inbox.security.body'));
      }
    }
  });
});
