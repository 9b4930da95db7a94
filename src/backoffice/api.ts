import { OPS_API, OPS_MESSAGES, type OpsName, type OpsReq, type OpsRes } from '../shared/backoffice';

/**
 * The back office's one network client: each call of OPS_API by name, with the staff session's
 * bearer token (kept in sessionStorage: a tab's, gone when it closes). A 401 ends the session here
 * too; a 403 `ops.errors.stepUp` asks for a fresh second factor (the StepUp dialog) and retries once.
 */

const API = '/api/ops';
const TOKEN = 'bourse.ops.token';

export type Result<T> = { ok: true; data: T } | { ok: false; error: string; status: number };

type Listener = () => void;
const signedOut = new Set<Listener>();

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN),
  set(token: string): void {
    sessionStorage.setItem(TOKEN, token);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN);
    for (const l of signedOut) l();
  },
  onSignedOut(l: Listener): () => void {
    signedOut.add(l);
    return () => signedOut.delete(l);
  },
};

/** Who answers a step-up request (the StepUp dialog registers itself); resolves true once given. */
let stepUpHandler: (() => Promise<boolean>) | null = null;
export function handleStepUp(h: (() => Promise<boolean>) | null): void {
  stepUpHandler = h;
}

function url(path: string, input: object): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(input))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return `${API}${path}${text ? `?${text}` : ''}`;
}

async function send(name: OpsName, input: object, poll: boolean): Promise<Response> {
  const def = OPS_API[name];
  const headers: Record<string, string> = {};
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  // Background reads do not keep an idle session alive (OPS_IDLE_MS counts only real use).
  if (poll) headers['x-ops-poll'] = '1';
  // The back office has no sync worker: this module is its one network client.
  // biome-ignore lint/style/noRestrictedGlobals: see above
  if (def.method === 'GET') return fetch(url(def.path, input), { headers, cache: 'no-store' });
  headers['content-type'] = 'application/json';
  // biome-ignore lint/style/noRestrictedGlobals: see above
  return fetch(`${API}${def.path}`, { method: 'POST', headers, body: JSON.stringify(input) });
}

/**
 * How far the server's clock is ahead of this desk's (ms), from the last answer's `x-server-now`
 * taken at the middle of its round trip. Ages and timers count from the server's times, so they
 * are measured on the server's clock too.
 */
let skew = 0;
export const serverNow = (): number => Date.now() + skew;

function learnClock(res: Response, sentAt: number): void {
  const stamp = Number(res.headers.get('x-server-now'));
  if (stamp > 0) skew = stamp - (sentAt + Date.now()) / 2;
}

/** One call; `poll`: a background read. */
export async function call<N extends OpsName>(
  name: N,
  input: OpsReq<N> = {} as OpsReq<N>,
  { poll = false, retried = false }: { poll?: boolean; retried?: boolean } = {},
): Promise<Result<OpsRes<N>>> {
  let res: Response;
  const sentAt = Date.now();
  try {
    res = await send(name, input as object, poll);
  } catch {
    return { ok: false, error: 'network', status: 0 };
  }
  learnClock(res, sentAt);
  if (OPS_API[name].raw && res.ok) return { ok: true, data: (await res.blob()) as OpsRes<N> };
  let body: { msg: string; data: unknown };
  try {
    body = await res.json();
  } catch {
    return { ok: false, error: 'errors.server', status: res.status };
  }
  if (body.msg === 'ok') return { ok: true, data: body.data as OpsRes<N> };
  const error = String(body.data);
  if (res.status === 401 && OPS_API[name].cap !== 'public') session.clear();
  if (res.status === 403 && error === 'ops.errors.stepUp' && !retried && stepUpHandler) {
    if (await stepUpHandler()) return call(name, input, { poll, retried: true });
  }
  return { ok: false, error, status: res.status };
}

/** A refusal in words. */
export function message(error: string): string {
  if (error === 'network') return 'The server cannot be reached. Check the connection and try again.';
  return OPS_MESSAGES[error] ?? `Refused (${error}).`;
}

/**
 * A CSV export (`auditCsv`, `statementCsv`, `payoutsCsv`, `queuesCsv`) saved as `<file>-<date>.csv`;
 * answers the error to show, or null.
 */
export async function downloadCsv<N extends 'auditCsv' | 'statementCsv' | 'payoutsCsv' | 'queuesCsv'>(
  name: N,
  input: OpsReq<N>,
  file: string,
): Promise<string | null> {
  const r = await call(name, input);
  if (!r.ok) return r.error;
  const url = URL.createObjectURL(r.data as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${file}-${new Date(serverNow()).toISOString().slice(0, 10)}.csv`;
  a.click();
  URL.revokeObjectURL(url);
  return null;
}
