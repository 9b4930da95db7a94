import { useTranslation } from 'react-i18next';
import { useConfig } from '../api/useConfig';
import { changeLanguage, type Language } from '../i18n/index';
import { Dialog } from '../ui/Dialog';
import { IconCheck } from '../ui/icons';
import ui from '../ui/ui.module.css';
import s from './core.module.css';
import { enabledLanguages, NATIVE } from './languageChoices';

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
