import { afterEach, describe, expect, it, vi } from 'vitest';
import { contract } from '#shared/contract/index';
import { createUploader } from '../../workers/upload';

/** Just enough of XMLHttpRequest for the uploader, driven by the test. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    {
      onprogress: null,
    };
  onprogress: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function make(online = true) {
  const onLogout = vi.fn();
  const upload = createUploader({
    baseURL: '/api',
    getToken: () => 'tok',
    onLogout,
    isOnline: () => online,
    timeoutMs: 1000,
    xhr: () => new FakeXhr() as unknown as XMLHttpRequest,
  });
  return { upload, onLogout };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('uploader', () => {
  it('posts one multipart file with the token and reports progress', async () => {
    const { upload } = make();
    const seen: number[] = [];
    const pending = upload(contract.upload, new Blob(['abc']), 'photo.jpg', (p) => seen.push(p));
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.headers.token]).toEqual(['POST', '/api/stock/success/upload', 'tok']);
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(Blob);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    xhr.answer(200, { msg: 'ok', data: { id: 'u1', url: '/api/stock/success/upload/u1' } });
    expect(await pending).toEqual({ ok: true, data: { id: 'u1', url: '/api/stock/success/upload/u1' } });
    expect(seen).toEqual([0.25, 1]);
  });

  it("passes the server's message key through and ends the session on logout", async () => {
    const { upload, onLogout } = make();
    const refused = upload(contract.upload, new Blob(['x']), 'a.jpg');
    FakeXhr.last.answer(400, { msg: 'no', data: 'errors.notAnImage' });
    expect(await refused).toMatchObject({ ok: false, error: 'errors.notAnImage', status: 400 });
    const ended = upload(contract.upload, new Blob(['x']), 'a.jpg');
    FakeXhr.last.answer(401, { msg: 'logout', data: 'errors.sessionExpired' });
    expect(await ended).toMatchObject({ ok: false, status: 401 });
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('gives up after the timeout of silence, but not while bytes keep moving', async () => {
    vi.useFakeTimers();
    const { upload } = make();
    const pending = upload(contract.upload, new Blob(['x']), 'a.jpg');
    const xhr = FakeXhr.last;
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(900);
      xhr.upload.onprogress?.({ lengthComputable: true, loaded: i, total: 10 });
    }
    expect(xhr.aborted).toBe(false);
    vi.advanceTimersByTime(1001);
    expect(xhr.aborted).toBe(true);
    expect(await pending).toMatchObject({ ok: false, error: 'errors.timeout' });
  });

  it('does not start offline', async () => {
    const { upload } = make(false);
    expect(await upload(contract.upload, new Blob(['x']), 'a.jpg')).toMatchObject({
      ok: false,
      error: 'errors.offline',
    });
  });
});
