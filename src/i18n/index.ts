import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Four languages (SPEC §1). Each language is a folder of locales/ with one file per area; the files
 * of a language are deep-merged into one namespace, and each key belongs to exactly one file
 * (tests/unit/locales.test.ts checks that and that every language has the same keys).
 * The choice is kept in localStorage.
 */
export const LANGUAGES = ['en', 'zh', 'es', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'bourse.language';

/*
 * English (the default and the fallback) is bundled with the app, so the first paint waits for no
 * extra request; the other languages load on demand.
 */
const english = import.meta.glob<Record<string, unknown>>('/locales/en/*.json', {
  import: 'default',
  eager: true,
});
const files = import.meta.glob<Record<string, unknown>>(['/locales/*/*.json', '!/locales/en/*.json'], {
  import: 'default',
});

function storedLanguage(): Language {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'en';
}

async function load(lng: Language): Promise<Record<string, unknown>> {
  if (lng === 'en')
    return Object.values(english).reduce<Record<string, unknown>>((all, part) => deepMerge(all, part), {});
  const parts = await Promise.all(
    Object.entries(files)
      .filter(([p]) => p.startsWith(`/locales/${lng}/`))
      .map(([, loader]) => loader()),
  );
  return parts.reduce<Record<string, unknown>>((all, part) => deepMerge(all, part), {});
}

function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    into[key] =
      existing && typeof existing === 'object' && value && typeof value === 'object'
        ? deepMerge({ ...(existing as Record<string, unknown>) }, value as Record<string, unknown>)
        : value;
  }
  return into;
}

export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLanguage();
  const [resources, fallback] = await Promise.all([load(lng), lng === 'en' ? null : load('en')]);
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { [lng]: { translation: resources }, ...(fallback ? { en: { translation: fallback } } : {}) },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = lng;
  return i18n;
}

export async function changeLanguage(lng: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'translation'))
    i18n.addResourceBundle(lng, 'translation', await load(lng));
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

export { i18n };
