import { type CallResult, type Endpoint, ERR, type NoAnswer, type OkAnswer } from '#shared/contract/define';
import { REQUEST_TIMEOUT_MS } from '#shared/rules';
import type { HttpOptions } from './http';

/** Share of the request body sent, 0 to 1. */
export type Progress = (sent: number) => void;

const I18N_KEY = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;

/**
 * Multipart uploads (contract `upload: true`, one `file` field). XMLHttpRequest rather than fetch
 * because only it reports upload progress. SPEC's 10 s timeout applies to silence, not to the
 * whole transfer: a photo on a slow link may take longer, but not 10 s without a byte moving.
 */
export function createUploader(opts: HttpOptions & { xhr?: () => XMLHttpRequest }) {
  const make = opts.xhr ?? (() => new XMLHttpRequest());
  return function upload<T>(
    ep: Endpoint,
    file: Blob,
    filename: string,
    onProgress?: Progress,
  ): Promise<CallResult<T>> {
    if (!opts.isOnline()) return Promise.resolve({ ok: false, error: ERR.offline, status: 0 });
    return new Promise((resolve) => {
      const xhr = make();
      let idle: ReturnType<typeof setTimeout> | null = null;
      let timedOut = false;
      const quiet = () => {
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => {
          timedOut = true;
          xhr.abort();
        }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
      };
      const done = (r: CallResult<T>) => {
        if (idle) clearTimeout(idle);
        resolve(r);
      };
      xhr.open(ep.method, `${opts.baseURL}${ep.path}`);
      const token = opts.getToken();
      if (ep.auth && token) xhr.setRequestHeader('token', token);
      xhr.upload.onprogress = (e) => {
        quiet();
        if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
      };
      xhr.onprogress = quiet;
      xhr.onload = () => {
        let body: Partial<OkAnswer<T> | NoAnswer> | null = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = null;
        }
        if (body?.msg === 'ok' && xhr.status < 400) {
          onProgress?.(1);
          return done({ ok: true, data: (body as OkAnswer<T>).data });
        }
        const key = typeof body?.data === 'string' && I18N_KEY.test(body.data) ? body.data : null;
        if ((body?.msg === 'logout' || xhr.status === 401) && ep.auth && token)
          opts.onLogout(key ?? ERR.sessionExpired, token);
        done({
          ok: false,
          error:
            key ??
            (xhr.status >= 500 ? ERR.server : xhr.status === 401 ? ERR.sessionExpired : ERR.invalidInput),
          status: xhr.status,
        });
      };
      xhr.onerror = () => done({ ok: false, error: opts.isOnline() ? ERR.network : ERR.offline, status: 0 });
      xhr.onabort = () => done({ ok: false, error: timedOut ? ERR.timeout : ERR.network, status: 0 });
      const form = new FormData();
      form.append('file', file, filename);
      quiet();
      xhr.send(form);
    });
  };
}
