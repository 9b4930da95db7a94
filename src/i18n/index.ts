import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Four languages (SPEC §1). Each language is a folder of locales/ with one file per area; the files
 * of a language are deep-merged into one namespace, and each key belongs to exactly one file
 * (tests/unit/locales.test.ts checks that and that every language has the same keys).
 * The choice is kept in localStorage.
 *
 * Areas load as they are needed: the first screen waits for the areas every screen uses
 * (`FIRST_AREAS`) and those its route names (`AppRoute.messages`, src/routes.tsx; a route that
 * names none waits for all of them), and the rest follow once the first screen is up
 * (`loadAllMessages`), so a toast or the next screen finds its words already there.
 */
import {
  type Area,
  FIRST_AREAS,
  firstMessageFiles,
  LANGUAGE_KEY,
  LANGUAGES,
  type Language,
} from './languages';

export { type Area, FIRST_AREAS, LANGUAGES, type Language };

/*
 * English's first areas (English is the default and the fallback) are bundled with the app, so the
 * first paint waits for no extra request; everything else is a chunk of its own.
 */
const englishFirst = import.meta.glob<Record<string, unknown>>(
  [
    '/locales/en/auth.json',
    '/locales/en/common.json',
    '/locales/en/core.json',
    '/locales/en/errors.json',
    '/locales/en/market.json',
  ],
  { import: 'default', eager: true },
);
const files = import.meta.glob<Record<string, unknown>>('/locales/*/*.json', { import: 'default' });
const fileOf = (lng: Language, area: string) => `/locales/${lng}/${area}.json`;
const ALL_AREAS: readonly string[] = Object.keys(files)
  .filter((p) => p.startsWith('/locales/en/'))
  .map((p) => p.slice('/locales/en/'.length, -'.json'.length));

function storedLanguage(): Language {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'en';
}

/** Areas added to i18next (`<lng>/<area>`), and those on their way. */
const loaded = new Map<string, Promise<void>>();

function loadArea(lng: Language, area: string): Promise<void> {
  const id = `${lng}/${area}`;
  let done = loaded.get(id);
  if (!done) {
    const path = fileOf(lng, area);
    const eager = lng === 'en' ? englishFirst[path] : undefined;
    const read = files[path];
    done = (eager ? Promise.resolve(eager) : read ? read() : Promise.resolve({})).then((messages) => {
      // Deep: the areas of a language share top-level keys (errors.*). Silent: `loadAreas` tells
      // the screens once per batch.
      i18n.addResourceBundle(lng, 'translation', messages, true, true, { silent: true });
      unannounced = true;
    });
    // A failed download (offline before the shell was cached) may be tried again.
    done.catch(() => loaded.delete(id));
    loaded.set(id, done);
  }
  return done;
}

/** An area was added since the screens were last told. */
let unannounced = false;
/** A component on the page showed a key (or its default) for want of its message: i18next's missing-key hook. */
let missed = false;

/*
 * Screens re-render (react-i18next, bindI18nStore 'added') once the batch is in, not once per area:
 * the rest of the areas, fetched after the first screen (`loadAllMessages`), arrive one by one, and
 * each 'added' re-rendered every translated component on a phone that is still starting up. And
 * only if something on the page lacked a word: a screen waits for its areas (`AppRoute.messages`),
 * so the later ones usually change nothing shown, and re-rendering every translated component for
 * nothing was the longest task of a signed-in start on a slow phone (bench:ui).
 */
function loadAreas(lng: Language, areas: readonly string[]): Promise<void> {
  const langs: Language[] = lng === 'en' ? ['en'] : [lng, 'en'];
  return Promise.all(langs.flatMap((l) => areas.map((a) => loadArea(l, a)))).then(() => {
    if (!unannounced) return;
    unannounced = false;
    if (!missed) return;
    missed = false;
    // Nothing to add: the one 'added' event, through the typed API.
    i18n.addResourceBundle(lng, 'translation', {}, true, true);
  });
}

const current = (): Language =>
  (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : storedLanguage();

/** The messages of these areas in the current language (and English, the fallback). */
export function loadMessages(areas?: readonly Area[]): Promise<void> {
  return loadAreas(current(), areas ?? ALL_AREAS);
}

/**
 * Starts downloading message files before i18next starts (src/main.tsx, for the first screen's
 * route): the module cache keeps them, and `loadMessages` / `initI18n` then find them there. With a
 * language other than English its first areas too, which `initI18n` waits for.
 */
export function prefetchMessages(areas?: readonly Area[]): void {
  for (const path of firstMessageFiles(storedLanguage(), areas, ALL_AREAS))
    void files[path]?.().catch(() => undefined);
}

/** Every area of the current language: started once the first screen is up. */
export function loadAllMessages(): Promise<void> {
  return loadAreas(current(), ALL_AREAS);
}

/** Starts i18next with the first areas (tests and benchmarks that render any screen: `'all'`). */
export async function initI18n(areas: readonly Area[] | 'all' = FIRST_AREAS): Promise<typeof i18n> {
  const lng = storedLanguage();
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    // One namespace and dotted keys, said outright: i18next then skips guessing, on every t(),
    // whether a key is a sentence or holds a namespace (a profile of Home's first render).
    nsSeparator: false,
    keySeparator: '.',
    returnNull: false,
    // Screens already shown re-render when an area they use arrives (`loadAreas`).
    react: { bindI18nStore: 'added' },
    saveMissing: true,
    missingKeyHandler: () => {
      missed = true;
    },
  });
  await loadAreas(lng, areas === 'all' ? ALL_AREAS : [...FIRST_AREAS, ...areas]);
  document.documentElement.lang = lng;
  return i18n;
}

export async function changeLanguage(lng: Language): Promise<void> {
  await loadAreas(lng, ALL_AREAS);
  localStorage.setItem(LANGUAGE_KEY, lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

export { i18n };
