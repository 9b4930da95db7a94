import { BlockList, isIP } from 'node:net';

/**
 * Which senders are the operator's proxies (TRUST_PROXY), as one function that both Fastify (whose
 * X-Forwarded-For it decides) and the request ids (lib/request-ids.ts) ask, so the two can never
 * disagree: `(address, hop)` — hop 0 is the connection's peer, 1 the address it forwarded, and so
 * on. A hop count trusts the nearest N senders (the operator vouches that every connection comes
 * through them); a list trusts exactly the addresses and CIDR ranges it names, IPv4-mapped IPv6
 * peers included. false: no sender is a proxy.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** The list's entries as a BlockList; an entry that is no address or CIDR range is refused. */
function rangesOf(list: readonly string[]): BlockList {
  const ranges = new BlockList();
  for (const entry of list) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? null : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    const max = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (bits !== null && !(bits >= 0 && bits <= max)))
      throw new Error(
        `TRUST_PROXY: "${entry}" is not an address or CIDR range (e.g. 10.0.0.1 or 10.0.0.0/8)`,
      );
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === null) ranges.addAddress(address, type);
    else ranges.addSubnet(address, bits, type);
  }
  return ranges;
}

export function proxyTrust(setting: number | readonly string[] | false): ProxyTrust | false {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  const ranges = rangesOf(setting);
  return (address) => {
    const family = isIP(address);
    return family !== 0 && ranges.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
