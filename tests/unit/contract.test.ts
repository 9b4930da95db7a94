import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { OPS_API } from '#shared/backoffice';
import { contract, endpoint, joinDomains } from '#shared/contract/index';
import { compileValidator } from '../../server/lib/validation';

describe('the contract joins its domains once', () => {
  const a = {
    ping: endpoint<null>()({ method: 'GET', path: '/v2/ping', auth: false, req: Type.Object({}) }),
  };

  it('a name defined in two domains throws, naming both', () => {
    const b = {
      ping: endpoint<null>()({ method: 'GET', path: '/v2/other', auth: false, req: Type.Object({}) }),
    };
    expect(() => joinDomains({ account: a, wallet: b })).toThrow('ping is defined in account and in wallet');
  });

  it('one method and path under two names throws', () => {
    const b = {
      pong: endpoint<null>()({ method: 'GET', path: '/v2/ping', auth: false, req: Type.Object({}) }),
    };
    expect(() => joinDomains({ account: a, market: b })).toThrow(
      'GET /v2/ping is defined in account and in market',
    );
  });

  it('the same path with another method is another call', () => {
    const b = {
      post: endpoint<null>()({ method: 'POST', path: '/v2/ping', auth: true, req: Type.Object({}) }),
    };
    expect(Object.keys(joinDomains({ account: a, wallet: b }))).toEqual(['ping', 'post']);
  });

  it("the app's contract loaded: every call has its own name and route", () => {
    const routes = Object.values(contract).map((e) => `${e.method} ${e.path}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe("the back office's API joins its areas the same way", () => {
  const a = {
    ping: endpoint<null>()({ method: 'GET', path: '/v2/ping', auth: false, req: Type.Object({}) }),
  };

  it('a name defined in two areas throws, naming the API', () => {
    expect(() => joinDomains({ staff: a, money: a }, 'OPS_API')).toThrow(
      'OPS_API: ping is defined in staff and in money',
    );
  });

  it('OPS_API loaded: every call has its own name and route', () => {
    const routes = Object.values(OPS_API).map((e) => `${e.method} ${e.path}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("a passkey's JSON takes at most 16 fields, as the customer contract's does", () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));
    const verify = compileValidator(OPS_API.verify.req, 'body');
    const register = compileValidator(OPS_API.passkeyRegister.req, 'body');
    expect(verify({ passkey: fields(16) })).toBe(true);
    expect(verify({ passkey: fields(17) })).toBe(false);
    expect(register({ response: fields(16) })).toBe(true);
    expect(register({ response: fields(17) })).toBe(false);
  });
});

describe('query strings', () => {
  it('every GET entry takes one flat object of scalars (validation drops what it does not take)', () => {
    const scalar = (p: { type?: string; anyOf?: Array<{ type?: string }> }): boolean =>
      p.anyOf ? p.anyOf.every(scalar) : ['string', 'number', 'integer', 'boolean'].includes(p.type ?? '');
    const odd = Object.entries(contract)
      .filter(([, e]) => e.method === 'GET')
      .flatMap(([name, e]) => {
        const req = e.req as { type?: string; properties?: Record<string, object> };
        if (req.type !== 'object') return [name];
        return Object.entries(req.properties ?? {})
          .filter(([, p]) => !scalar(p))
          .map(([field]) => `${name}.${field}`);
      });
    expect(odd).toEqual([]);
  });
});
