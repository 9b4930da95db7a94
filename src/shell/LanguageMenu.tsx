import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../ui/Button';
import { OptionalPart, retryableLazy } from '../ui/FailureBoundary';
import { IconGlobe } from '../ui/icons';
import type { LanguageSheet } from './LanguageSheet';

/**
 * The sheet's code (the dialog kit) is fetched when the menu is first opened, not with Home, whose
 * first screen shows only the button; once opened it stays mounted, so it closes as a dialog does.
 * Code that could not be fetched leaves the button as it was, and the next tap asks for it again.
 */
const sheet = retryableLazy<Parameters<typeof LanguageSheet>[0]>(() =>
  import('./LanguageSheet').then((m) => ({ default: m.LanguageSheet })),
);

/**
 * The language menu (SPEC §2 Home header): a globe button opening a sheet with the enabled
 * languages; the choice is kept on the device.
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <IconButton
        label={t('core.language.title')}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <IconGlobe />
      </IconButton>
      {opened && (
        <OptionalPart
          lazyPart={sheet}
          onFailed={() => {
            setOpened(false);
            setOpen(false);
          }}
        >
          <Suspense fallback={null}>
            <sheet.Component open={open} onClose={() => setOpen(false)} />
          </Suspense>
        </OptionalPart>
      )}
    </>
  );
}
