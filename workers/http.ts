import { FetchError, ofetch } from 'ofetch';
import {
  type CallResult,
  type Endpoint,
  ERR,
  type NoAnswer,
  type OkAnswer,
  SERVER_TIME_HEADER,
} from '#shared/contract/define';
import { REQUEST_TIMEOUT_MS } from '#shared/rules';
import type { ServerClock } from './server-clock';
import { SW_CACHE_HEADER } from './sw-cache';

/**
 * The app's only HTTP client. It speaks SPEC §7's conventions — JSON, the `token` header,
 * `{ msg, data }` answers, a 10 s timeout — and turns every outcome into a CallResult whose error
 * is an i18n key. It never retries: a money call after a timeout is retried only by the user,
 * with the same Idempotency-Key.
 */
export interface HttpOptions {
  baseURL: string;
  getToken: () => string | null;
  /**
   * A `logout` answer (or 401) to a request that carried the session's `token`: that session is over
   * everywhere; `reason` is its i18n key.
   */
  onLogout: (reason: string, token: string) => void;
  isOnline: () => boolean;
  /** Default REQUEST_TIMEOUT_MS (SPEC §9: 10 s). */
  timeoutMs?: number;
  /** Told the server's clock from each answer that carries it. */
  clock?: ServerClock;
}

/** An answer's `data` is shown only when it is an i18n key; free text from elsewhere is not. */
const I18N_KEY = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;
const isKey = (v: unknown): v is string => typeof v === 'string' && I18N_KEY.test(v);

export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * Another token than the session's: the password-only step of a two-factor sign-in,
   * which is not the session yet. Its `logout` answers end nothing on the device.
   */
  token?: string;
}

export function createHttp(opts: HttpOptions) {
  return async function request<T>(
    ep: Endpoint,
    input: unknown,
    call: CallOptions = {},
  ): Promise<CallResult<T>> {
    if (ep.money && !opts.isOnline()) return { ok: false, error: ERR.offline, status: 0 };
    const headers: Record<string, string> = {};
    const token = call.token ?? opts.getToken();
    // A refusal ends the session whose token it refused: one sent without it (a public call, a call
    // made before the token arrived) or with a sign-in step's token says nothing of the session.
    const sent = ep.auth && !call.token ? token : null;
    const onLogout = (reason: string) => {
      if (sent) opts.onLogout(reason, sent);
    };
    if (ep.auth && token) headers.token = token;
    if (ep.auth && ep.bearer && token) headers.authorization = `Bearer ${token}`;
    if (ep.money && call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    const timeout = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    // ofetch drops its own timeout when given a signal: a caller's signal is joined with one.
    const signal = call.signal ? AbortSignal.any([call.signal, AbortSignal.timeout(timeout)]) : undefined;
    // An answer from the service worker's cache (news only) is not the server's: the network did
    // not answer, and reachability must not count it as reached.
    let fromCache = false;
    const sentAt = Date.now();
    try {
      const answer = await ofetch<OkAnswer<T> | NoAnswer>(ep.path, {
        baseURL: opts.baseURL,
        method: ep.method,
        headers,
        ...(ep.method === 'GET'
          ? { query: input as Record<string, unknown> }
          : { body: input as Record<string, unknown> }),
        ...(signal ? { signal } : { timeout }),
        retry: 0,
        onResponse: ({ response }) => {
          fromCache = response.headers.get(SW_CACHE_HEADER) === '1';
          const serverTime = response.headers.get(SERVER_TIME_HEADER);
          if (!fromCache && serverTime) opts.clock?.observe(Number(serverTime), sentAt, Date.now());
        },
      });
      if (fromCache) return { ok: false, error: opts.isOnline() ? ERR.timeout : ERR.offline, status: 0 };
      if (answer?.msg === 'ok') return { ok: true, data: answer.data };
      if (answer?.msg === 'logout') onLogout(isKey(answer.data) ? answer.data : ERR.sessionExpired);
      return { ok: false, error: isKey(answer?.data) ? answer.data : ERR.server, status: 200 };
    } catch (err) {
      return failure(err, { ...opts, onLogout });
    }
  };
}

function failure(
  err: unknown,
  opts: Omit<HttpOptions, 'onLogout'> & { onLogout: (reason: string) => void },
): { ok: false; error: string; status: number } {
  if (err instanceof FetchError) {
    const status = err.response?.status ?? 0;
    const body = err.data as Partial<NoAnswer> | undefined;
    if (body?.msg === 'logout' || status === 401)
      opts.onLogout(isKey(body?.data) ? body.data : ERR.sessionExpired);
    if (isKey(body?.data)) return { ok: false, error: body.data, status };
    if (status === 0) {
      const timedOut = err.name === 'TimeoutError' || /timeout|aborted/i.test(String(err.message));
      return {
        ok: false,
        error: !opts.isOnline() ? ERR.offline : timedOut ? ERR.timeout : ERR.network,
        status,
      };
    }
    return {
      ok: false,
      error: status === 401 ? ERR.sessionExpired : status >= 500 ? ERR.server : ERR.invalidInput,
      status,
    };
  }
  return { ok: false, error: ERR.network, status: 0 };
}
