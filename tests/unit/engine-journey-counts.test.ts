import { describe, expect, it } from 'vitest';
import { homePollProblem, Own, USER_INFO } from '../../e2e/engines/journey';
import type { Request } from '../../e2e/engines/server';
import { sessionTag } from '../../server/lib/request-ids';

/**
 * The engine journeys' request counts (e2e/engines/journey.ts): only the journey's own session
 * counts; a GET twice within 1 s or user info more often than every 3 s fails, fewer polls do not.
 */
const T0 = 1_000_000;
const get = (s: number, url: string, session: string, conn = 1): Request => ({
  at: T0 + s * 1000,
  method: 'GET',
  url,
  status: 200,
  session,
  conn,
});
const every = (ms: number, n: number, session: string, conn = 1) =>
  Array.from({ length: n }, (_, i) => get((i * ms) / 1000, USER_INFO, session, conn));

describe('engine journey request counts', () => {
  const own = new Own();
  own.add('token-of-the-journey');
  const mine = sessionTag('token-of-the-journey');
  const stranger = sessionTag('token-of-a-killed-run');

  it("passes a poll every 3 s, and a slow machine's fewer", () => {
    expect(homePollProblem(every(3_000, 10, mine), T0, T0 + 30_000)).toBeNull();
    expect(homePollProblem(every(9_000, 4, mine), T0, T0 + 30_000)).toBeNull();
  });

  it('fails user info more often than every 3 s, listing the requests with times', () => {
    const problem = homePollProblem(every(2_500, 12, mine), T0, T0 + 30_000);
    expect(problem).toMatch(/user info asked for 12 times in 30\.0 s on Home \(at most 11/);
    expect(problem).toContain(`(+2.500 s) GET ${USER_INFO} → 200 · session ${mine}`);
  });

  it('fails a GET sent twice within 1 s', () => {
    const twice = [...every(3_000, 10, mine), get(6.4, USER_INFO, mine)].sort((a, b) => a.at - b.at);
    expect(homePollProblem(twice, T0, T0 + 30_000)).toMatch(/sent twice within 1 s on Home: \/api\//);
  });

  it("counts none of a stranger's requests on the port, and its polls make no duplicate", () => {
    const all = [...every(3_000, 10, mine, 1), ...every(700, 43, stranger, 2)].sort((a, b) => a.at - b.at);
    expect(homePollProblem(all, T0, T0 + 30_000)).not.toBeNull();
    const ours = own.of(all);
    expect(ours).toHaveLength(10);
    expect(homePollProblem(ours, T0, T0 + 30_000)).toBeNull();
  });

  it("takes a sign-in's POST as the journey's from its button press, unless a stranger's connection sent it", () => {
    const login = (s: number, conn: number): Request => ({
      at: T0 + s * 1000,
      method: 'POST',
      url: '/api/stock/user/login',
      conn,
    });
    const all = [
      login(0.5, 2), // the stranger's, on its polling connection
      get(1, USER_INFO, stranger, 2),
      login(2, 7), // the journey's, on a connection its session never used
      get(3, USER_INFO, mine, 1),
    ];
    const logins = own.since(all, T0 + 1_500).filter((r) => r.method === 'POST');
    expect(logins.map((r) => r.conn)).toEqual([7]);
    // The journey's own second sign-in after the press counts: a double submit is caught.
    expect(own.since([...all, login(2.3, 8)], T0 + 1_500).filter((r) => r.method === 'POST')).toHaveLength(2);
  });
});
