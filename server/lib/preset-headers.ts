import { OutgoingMessage, validateHeaderName, validateHeaderValue } from 'node:http';

/**
 * Response headers that are the same on many answers (the security headers on every one, a
 * snapshot's ETag and cache-control on each answer of a tick), validated once and then set on each
 * response without Node checking every name and value again: `res.setHeader` runs two regular
 * expressions and a lower-casing per call, which a profile showed as the largest share of a small
 * answer's own JavaScript.
 *
 * How: Node keeps a response's headers in an object under an internal symbol (`kOutHeaders`),
 * lower-case name → [name, value]. Found once at start on a probe and checked to behave exactly as
 * `setHeader` does (`getHeader`, `hasHeader`, `getHeaders`, `removeHeader`); if this Node keeps
 * headers otherwise, every `apply` falls back to `setHeader`, the same answers a little slower.
 * Entries are frozen and shared: `setHeader`/`removeHeader` replace or drop them per response.
 */

type Entry = readonly [string, string];
type Store = Record<string, Entry>;
type WithStore = OutgoingMessage & Record<symbol, Store | null | undefined>;

function findStore(): symbol | undefined {
  const probe = new OutgoingMessage() as WithStore;
  probe.setHeader('X-Probe', 'one');
  return Object.getOwnPropertySymbols(probe).find((s) => {
    const store = probe[s];
    const entry = store !== null && typeof store === 'object' ? (store as Store)['x-probe'] : undefined;
    return Array.isArray(entry) && entry[0] === 'X-Probe' && entry[1] === 'one';
  });
}

const STORE = findStore();
/** Whether `apply` writes the store directly; confirmed by `selfCheck` below, once. */
let direct = STORE !== undefined;

/** What a per-answer value may hold: printable ASCII, no CR or LF (no header it could add). */
const PLAIN_VALUE = /^[\x20-\x7e]*$/;

export class PresetHeaders {
  /** Lower-case names and their frozen [name, value], in the order given. */
  private readonly keys: readonly string[];
  private readonly list: readonly Entry[];
  /** The names of `applyWith`'s two per-answer values (lower case), or none. */
  private readonly dynamic: readonly [string, string] | null;

  /**
   * `dynamic`: the names of two headers whose values change with every answer (a request id, a
   * clock reading), set by `applyWith` in the same pass: one header write per answer.
   */
  constructor(list: ReadonlyArray<readonly [string, string]>, dynamic?: readonly [string, string]) {
    const entries: Store = Object.create(null);
    for (const [name, value] of list) {
      // Refused here, once, exactly as setHeader would refuse them on every answer.
      validateHeaderName(name);
      validateHeaderValue(name, value);
      entries[name.toLowerCase()] = Object.freeze([name, value] as const);
    }
    this.keys = Object.keys(entries);
    this.list = Object.values(entries);
    if (dynamic) for (const name of dynamic) validateHeaderName(name);
    this.dynamic = dynamic ? [dynamic[0].toLowerCase(), dynamic[1].toLowerCase()] : null;
  }

  /**
   * `apply`, then the two per-answer headers named at construction with `first` and `second`.
   * Their values are the caller's own making (a request id it generated or checked, a number);
   * one that is not plain printable text is refused as `setHeader` would refuse it.
   */
  applyWith(res: OutgoingMessage, first: string, second: string): void {
    const names = this.dynamic;
    if (names === null) throw new Error('PresetHeaders.applyWith: no per-answer names were given');
    this.apply(res);
    if (direct && PLAIN_VALUE.test(first) && PLAIN_VALUE.test(second)) {
      const own = (res as WithStore)[STORE as symbol] as Store;
      own[names[0]] = [names[0], first];
      own[names[1]] = [names[1], second];
      return;
    }
    res.setHeader(names[0], first);
    res.setHeader(names[1], second);
  }

  /** Sets every header on `res` (before its head is written), replacing ones of the same name. */
  apply(res: OutgoingMessage): void {
    if (direct) {
      const r = res as WithStore;
      // A plain loop: spreading or Object.assign of a dictionary-mode object costs as much as
      // setHeader itself (measured on Node 20).
      let own = r[STORE as symbol];
      if (own === null || own === undefined) {
        own = Object.create(null) as Store;
        r[STORE as symbol] = own;
      }
      const { keys, list } = this;
      for (let i = 0; i < keys.length; i++) own[keys[i] as string] = list[i] as Entry;
      return;
    }
    for (const [name, value] of this.list) res.setHeader(name, value);
  }

  /** True when `apply` writes Node's header store directly (false: it calls setHeader). */
  static get direct(): boolean {
    return direct;
  }

  /** Checks once that a response given these headers reads back as setHeader would make it. */
  static selfCheck(): boolean {
    if (STORE === undefined) return false;
    const preset = new PresetHeaders([
      ['X-One', '1'],
      ['x-two', 'two'],
    ]);
    const res = new OutgoingMessage();
    res.setHeader('x-before', 'b');
    preset.apply(res);
    const fresh = new OutgoingMessage();
    preset.apply(fresh);
    fresh.removeHeader('x-two');
    const names = res.getHeaderNames().join(',');
    return (
      res.getHeader('x-one') === '1' &&
      res.hasHeader('X-TWO') &&
      res.getHeaders()['x-two'] === 'two' &&
      names === 'x-before,x-one,x-two' &&
      !fresh.hasHeader('x-two') &&
      fresh.getHeader('x-one') === '1' &&
      // The shared entries are untouched by what one response does.
      res.hasHeader('x-two')
    );
  }
}

direct = PresetHeaders.selfCheck();
