import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small loopback proxy between the browser and the real server, for the network-chaos journeys.
 * `context.setOffline` cannot say "the phone is online but the server does not answer",
 * and it does not cut the service worker's requests — the proxy does both, for every request.
 *
 * - `latency(ms)`: every request waits this long before it is forwarded.
 * - `dropShare(p)`: a share of requests is cut (connection reset) before reaching the server.
 * - `silent()` / `answer()`: stop answering (requests are held open, never forwarded) and resume;
 *   requests held while silent stay unanswered, as a stalled tower leaves them.
 * - `loseAnswerOf(path)`: the next request to that API path reaches the server, and its answer is
 *   cut on the way back (the server did it; the phone never hears).
 * - `neverDeliver(path)`: the next request to that path is cut before it reaches the server.
 * - `requests`: every request received, with its time, for counting (e.g. after a reconnect).
 */
export interface ChaosProxy {
  url: string;
  requests: Array<{ at: number; method: string; path: string }>;
  latency(ms: number): void;
  dropShare(share: number): void;
  silent(): void;
  answer(): void;
  /** `thenSilent`: and stop answering right after, until `answer()`. */
  loseAnswerOf(path: string, opts?: { thenSilent?: boolean }): void;
  neverDeliver(path: string, opts?: { thenSilent?: boolean }): void;
  close(): Promise<void>;
}

export async function startChaosProxy(target: string, port: number): Promise<ChaosProxy> {
  const upstream = new URL(target);
  let delay = 0;
  let drop = 0;
  let silent = false;
  const lose = new Map<string, boolean>();
  const never = new Map<string, boolean>();
  const held = new Set<Socket>();
  const sockets = new Set<Socket>();
  const requests: ChaosProxy['requests'] = [];

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ at: Date.now(), method: req.method ?? 'GET', path: req.url ?? '/' });
    if (silent) {
      held.add(req.socket);
      return;
    }
    if (never.has(path)) {
      silent = never.get(path) === true;
      never.delete(path);
      req.socket.destroy();
      return;
    }
    if (drop > 0 && Math.random() < drop) {
      req.socket.destroy();
      return;
    }
    const losing = lose.has(path);
    const thenSilent = lose.get(path) === true;
    lose.delete(path);
    const forward = () => {
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          if (losing) {
            // Read the whole answer (the server has finished), then cut the phone's connection.
            answer.resume();
            answer.on('end', () => {
              if (thenSilent) silent = true;
              req.socket.destroy();
            });
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => req.socket.destroy());
      req.pipe(out);
    };
    if (delay > 0) setTimeout(forward, delay);
    else forward();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      held.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    latency: (ms) => {
      delay = ms;
    },
    dropShare: (share) => {
      drop = share;
    },
    silent: () => {
      silent = true;
    },
    answer: () => {
      silent = false;
    },
    loseAnswerOf: (path, opts) => lose.set(path, opts?.thenSilent === true),
    neverDeliver: (path, opts) => never.set(path, opts?.thenSilent === true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
