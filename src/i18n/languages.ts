/** The four languages (SPEC §1) and where the choice is kept; no i18next here, so the build can read it. */
export const LANGUAGES = ['en', 'zh', 'es', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_KEY = 'bourse.language';
