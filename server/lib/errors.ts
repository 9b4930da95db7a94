import { ERR } from '../../src/shared/contract/define';

/**
 * A rejection the app can translate: `key` is an i18n key (locales/*\/errors.json) and becomes
 * the answer's `data`; 401 answers `msg: 'logout'` so the app ends the session (SPEC §4).
 */
export class ApiError extends Error {
  constructor(
    readonly key: string,
    readonly status = 400,
    /** Values the message interpolates (e.g. the configured minimum), sent as `params`. */
    readonly params?: Record<string, string | number>,
  ) {
    super(key);
  }
}

export const notFound = () => new ApiError(ERR.notFound, 404);
export const invalid = (key: string = ERR.invalidInput) => new ApiError(key, 400);
export const conflict = (key: string) => new ApiError(key, 409);
export const unprocessable = (key: string) => new ApiError(key, 422);
