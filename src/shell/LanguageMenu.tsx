import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../api/useConfig';
import { changeLanguage, LANGUAGES, type Language } from '../i18n/index';
import { IconButton } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { IconCheck, IconGlobe } from '../ui/icons';
import ui from '../ui/ui.module.css';
import s from './core.module.css';

/** Each language named in itself, so a reader finds theirs whatever the current one is. */
export const NATIVE: Record<Language, string> = { en: 'English', zh: '中文', es: 'Español', de: 'Deutsch' };

/** The languages the configuration enables (SPEC: only English by default), in a known order. */
export function enabledLanguages(configured: string[]): Language[] {
  const list = LANGUAGES.filter((l) => configured.includes(l));
  return list.length ? list : ['en'];
}

/**
 * The language menu (SPEC §2 Home header): a globe button opening a sheet with the enabled
 * languages; the choice is kept on the device.
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton label={t('core.language.title')} onClick={() => setOpen(true)}>
        <IconGlobe />
      </IconButton>
      <LanguageSheet open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** The sheet itself, also opened from the settings screen. */
export function LanguageSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { languages } = useConfig();
  const current = i18n.language as Language;
  return (
    <Dialog open={open} onClose={onClose} title={t('core.language.title')} sheet>
      <ul className={`${ui.choices} ${s.languages}`}>
        {enabledLanguages(languages).map((lng) => (
          <li key={lng}>
            <button
              type="button"
              aria-current={lng === current ? 'true' : undefined}
              lang={lng}
              className={`${ui.choice} ${s.language}`}
              onClick={async () => {
                await changeLanguage(lng);
                onClose();
              }}
            >
              {NATIVE[lng]}
              {lng === current && <IconCheck size={18} />}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
