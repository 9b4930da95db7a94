import { type CallResult, ERR } from '#shared/contract/define';
import { createDevice, type Device } from '../../workers/device';

/** A database name no other test uses (fake-indexeddb), for a test that opens the same store twice. */
let seq = 0;
export const freshDeviceName = (prefix: string): string => `bourse-${prefix}-${Date.now()}-${++seq}`;

/** The worker's device store on a database of its own, so tests never share one. */
export const freshDevice = (prefix: string): Device => createDevice(freshDeviceName(prefix));

/** A stand-in server's answers, as the worker's request path gives them. */
export const ok = <T>(data: T): CallResult<T> => ({ ok: true, data });
export const down: CallResult<never> = { ok: false, error: ERR.network, status: 0 };
