/** The four languages (SPEC §1) and where the choice is kept; no i18next here, so the build can read it. */
export const LANGUAGES = ['en', 'zh', 'es', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = 'bourse.language';

/** The areas (file names of locales/<lang>/) the shell and every screen use: English's are bundled. */
export const FIRST_AREAS = ['auth', 'common', 'core', 'errors', 'market'] as const;
export type Area =
  | (typeof FIRST_AREAS)[number]
  | 'invest'
  | 'markets'
  | 'notices'
  | 'portfolio'
  | 'profile'
  | 'security'
  | 'trade'
  | 'tradepw'
  | 'trading'
  | 'wallet'
  | 'watch';

/**
 * The message files (`/locales/<lang>/<area>.json`) a first screen waits for in `lng`: the areas
 * its route names (`undefined`: every one of `all`) and, in another language than English, the
 * first areas too, each also in English (the fallback) — less English's first areas, which come
 * with the app. What src/main.tsx fetches before React starts and index.html's script preloads.
 */
export function firstMessageFiles(
  lng: Language,
  areas: readonly string[] | undefined,
  all: readonly string[],
): string[] {
  const wanted = [...new Set([...(lng === 'en' ? [] : FIRST_AREAS), ...(areas ?? all)])];
  const first: readonly string[] = FIRST_AREAS;
  return (lng === 'en' ? ['en'] : [lng, 'en']).flatMap((l) =>
    wanted.filter((a) => l !== 'en' || !first.includes(a)).map((a) => `/locales/${l}/${a}.json`),
  );
}
