import { LANGUAGES, type Language } from '../i18n/index';

/** Each language named in itself, so a reader finds theirs whatever the current one is. */
export const NATIVE: Record<Language, string> = { en: 'English', zh: '中文', es: 'Español', de: 'Deutsch' };

/** The languages the configuration enables (SPEC: only English by default), in a known order. */
export function enabledLanguages(configured: string[]): Language[] {
  const list = LANGUAGES.filter((l) => configured.includes(l));
  return list.length ? list : ['en'];
}
