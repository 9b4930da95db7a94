import { type Notice, type NoticeText, noticeText, type Translate } from '#shared/notices';
import deNotices from '../../locales/de/notices.json';
import deWatch from '../../locales/de/watch.json';
import enNotices from '../../locales/en/notices.json';
import enWatch from '../../locales/en/watch.json';
import esNotices from '../../locales/es/notices.json';
import esWatch from '../../locales/es/watch.json';
import zhNotices from '../../locales/zh/notices.json';
import zhWatch from '../../locales/zh/watch.json';

/**
 * A push is written on the server, in the language of the device it goes to (the subscription's
 * `lang`), from the app's own messages (locales/<lang>/notices.json and watch.json) through the
 * wording the inbox uses (src/shared/notices.ts): a notice reads the same in the app and on the
 * lock screen. English fills any gap, as in the app.
 */
type Messages = Record<string, unknown>;
const MESSAGES: Record<string, Messages[]> = {
  en: [enNotices, enWatch],
  zh: [zhNotices, zhWatch],
  es: [esNotices, esWatch],
  de: [deNotices, deWatch],
};

function lookup(sets: Messages[], key: string): string | undefined {
  for (const set of sets) {
    let node: unknown = set;
    for (const part of key.split('.')) node = (node as Messages | undefined)?.[part];
    if (typeof node === 'string') return node;
  }
  return undefined;
}

/** i18next's `{{name}}` interpolation, without escaping (a notification's text is not HTML). */
export function translator(lang: string): Translate {
  const sets = [...(MESSAGES[lang] ?? []), ...(MESSAGES.en ?? [])];
  return (key, params = {}) =>
    (lookup(sets, key) ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
      String(params[name] ?? ''),
    );
}

const translators = new Map<string, Translate>();

export function pushText(n: Notice, lang: string, amounts: boolean): NoticeText {
  let t = translators.get(lang);
  if (!t) {
    t = translator(lang);
    translators.set(lang, t);
  }
  return noticeText(n, t, amounts);
}
