/**
 * `npm run bench:factors`: what two-factor sign-in costs the server, printed, never
 * asserted. On SQLite, and on PostgreSQL too when TEST_PG_URL is set:
 *   1. one verification, median of 100: a passkey's assertion (`verifyPasskey`: challenge used up,
 *      signature, counter) and an app's code (`verifyTotp`), each inside the real lockout guard
 *      (the login limit's attempt rows), as server/account/two-factor.ts runs them;
 *   2. the same through the API (`secondFactor`: the proof, then the full session), median of 100;
 *   3. the sign-in's extra time for a user: SPEC's login alone (production's scrypt cost, N = 2^17),
 *      and the second step timed on its own after it (passkey: its challenge + the proof), median of 20.
 */

import { verifyUnderLoginLimit } from '../../server/account/login-limit';
import { factorContext, userOwner } from '../../server/account/two-factor';
import {
  passkeyAuthenticationOptions,
  totpCode,
  verifyPasskey,
  verifyTotp,
} from '../../server/factors/index';
import { SoftAuthenticator } from '../support/authenticator';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { enrolPasskey, enrolTotp } from '../support/two-factor';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const fmt = (v: number) => `${v.toFixed(v < 10 ? 3 : 1)} ms`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(64)} ${value}`);

async function timed(n: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const PASSWORD = 'secret123';

async function bench(s: TestServer): Promise<void> {
  const guard = (phone: string) => (verify: () => Promise<boolean>) =>
    verifyUnderLoginLimit(s.deps, phone, '127.0.0.1', verify);

  // 1. The factor module's verification itself.
  const pk = await s.signUp();
  const auth = new SoftAuthenticator();
  await enrolPasskey(s, pk.token, auth);
  const owner = userOwner(pk.id);
  const passkeyMs = await timed(100, async () => {
    const options = await passkeyAuthenticationOptions(factorContext(s.deps), owner);
    const response = auth.assert(options as unknown as { challenge: string });
    await verifyPasskey(factorContext(s.deps), owner, response as never, guard(pk.phone));
  });
  const tp = await s.signUp();
  const { secret } = await enrolTotp(s, tp.token);
  const totpMs = await timed(100, async () => {
    s.clock.advance(30_000);
    await verifyTotp(
      factorContext(s.deps),
      userOwner(tp.id),
      totpCode(secret, s.clock.now()),
      guard(tp.phone),
    );
  });
  // The same without the lockout's attempt rows (a guard that only runs the check): what the
  // factor costs by itself, apart from the writes the login limit makes for every guess.
  const bare = (verify: () => Promise<boolean>) => verify();
  const passkeyBare = await timed(100, async () => {
    const options = await passkeyAuthenticationOptions(factorContext(s.deps), owner);
    const response = auth.assert(options as unknown as { challenge: string });
    await verifyPasskey(factorContext(s.deps), owner, response as never, bare);
  });
  const totpBare = await timed(100, async () => {
    s.clock.advance(30_000);
    await verifyTotp(factorContext(s.deps), userOwner(tp.id), totpCode(secret, s.clock.now()), bare);
  });
  line('verifyPasskey in the lockout guard (challenge made before), median of 100', fmt(passkeyMs));
  line('verifyTotp in the lockout guard, median of 100', fmt(totpMs));
  line('verifyPasskey without the guard, median of 100', fmt(passkeyBare));
  line('verifyTotp without the guard, median of 100', fmt(totpBare));

  // 2. Through the API: a step session (made outside the timing) gives its proof.
  const steps = async (phone: string, n: number) => {
    const tokens: string[] = [];
    for (let k = 0; k < n; k++)
      tokens.push((await s.call('login', { body: { user: phone, password: PASSWORD } })).body.data.token);
    return tokens;
  };
  const pkSteps = await steps(pk.phone, 100);
  let i = 0;
  const apiPasskey: number[] = [];
  for (const token of pkSteps) {
    const options = await s.call('factorChallenge', { token, body: {} });
    const response = auth.assert(options.body.data);
    const t0 = performance.now();
    const r = await s.call('secondFactor', { token, body: { passkey: response } });
    apiPasskey.push(performance.now() - t0);
    if (r.body.msg !== 'ok') throw new Error(`passkey step ${i}: ${JSON.stringify(r.body)}`);
    i++;
  }
  const apiTotp: number[] = [];
  for (let k = 0; k < 100; k++) {
    // A step lasts 10 minutes and each code needs a step of its own (30 s): one step per code.
    s.clock.advance(30_000);
    const [token] = await steps(tp.phone, 1);
    const code = totpCode(secret, s.clock.now());
    const t0 = performance.now();
    const r = await s.call('secondFactor', { token, body: { code } });
    apiTotp.push(performance.now() - t0);
    if (r.body.msg !== 'ok') throw new Error(`totp step: ${JSON.stringify(r.body)}`);
  }
  line(
    'POST secondFactor with a passkey (the full session included), median of 100',
    fmt(median(apiPasskey)),
  );
  line('POST secondFactor with an app code, median of 100', fmt(median(apiTotp)));
}

async function signInCost(s: TestServer): Promise<void> {
  // 3. A user's sign-in, at production's scrypt cost.
  const plain = await s.signUp();
  const pk = await s.signUp();
  const auth = new SoftAuthenticator();
  await enrolPasskey(s, pk.token, auth);
  const tp = await s.signUp();
  const { secret } = await enrolTotp(s, tp.token);
  const login = (phone: string) => s.call('login', { body: { user: phone, password: PASSWORD } });
  // The password's cost (scrypt) swamps the second step's and moves with the machine's load: the
  // second step is timed on its own, after each login, so the extra time is not a difference of
  // two noisy medians.
  const logins: number[] = [];
  const passkeyExtra: number[] = [];
  const totpExtra: number[] = [];
  for (let k = 0; k < 20; k++) {
    let t0 = performance.now();
    await login(plain.phone);
    logins.push(performance.now() - t0);
    const pkStep = (await login(pk.phone)).body.data.token;
    t0 = performance.now();
    const options = await s.call('factorChallenge', { token: pkStep, body: {} });
    await s.call('secondFactor', { token: pkStep, body: { passkey: auth.assert(options.body.data) } });
    passkeyExtra.push(performance.now() - t0);
    s.clock.advance(30_000);
    const tpStep = (await login(tp.phone)).body.data.token;
    t0 = performance.now();
    await s.call('secondFactor', { token: tpStep, body: { code: totpCode(secret, s.clock.now()) } });
    totpExtra.push(performance.now() - t0);
  }
  line('SPEC login alone (scrypt N=2^17), median of 20', fmt(median(logins)));
  line('+ the second step with a passkey (challenge + proof), median of 20', `+${fmt(median(passkeyExtra))}`);
  line('+ the second step with an app code, median of 20', `+${fmt(median(totpExtra))}`);
  console.log(
    "  (the browser's passkey prompt or typing a code comes on top: the user's time, not the server's)",
  );
}

for (const { name, enabled } of DIALECTS) {
  if (!enabled) {
    console.log(`\n${name}: skipped (set TEST_PG_URL)`);
    continue;
  }
  console.log(`\n${name}: server time per verification`);
  const s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '100000' });
  try {
    await bench(s);
  } finally {
    await s.close();
  }
  console.log(`${name}: a user's sign-in`);
  const prod = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '100000', SCRYPT_N: String(2 ** 17) });
  try {
    await signInCost(prod);
  } finally {
    await prod.close();
  }
}
