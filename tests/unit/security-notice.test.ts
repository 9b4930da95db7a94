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
