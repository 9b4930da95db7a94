import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { setLowDataPref, useLowDataPref } from '../../api/lowData';
import type { Language } from '../../i18n/index';
import { PATHS } from '../../paths';
import { iosCanAdd, openIosGuide, persisted } from '../../shell/homeScreen';
import { LanguageSheet } from '../../shell/LanguageSheet';
import { NATIVE } from '../../shell/languageChoices';
import { TradePasswordDialog } from '../../shell/TradePasswordDialog';
import { type UpDown, useUpDown } from '../../shell/updown';
import {
  ConfirmDialog,
  Dialog,
  IconBell,
  IconCard,
  IconCheck,
  IconChevron,
  IconDevice,
  IconFingerprint,
  IconGlobe,
  IconLock,
  IconLogout,
  IconMarkets,
  IconOffline,
  IconShield,
  IconTicket,
  PageHeader,
  ui,
} from '../../ui';
import s from './settings.module.css';
import { useSettings } from './useSettings';

const KYC_LABEL = {
  0: 'settings.kyc.none',
  1: 'settings.kyc.review',
  2: 'settings.kyc.approved',
  3: 'settings.kyc.rejected',
} as const;

/** Settings (SPEC §2): security, preferences and logout with confirmation. */
export default function SettingsScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const settings = useSettings();
  const [tradeOpen, setTradeOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);
  const [colorsOpen, setColorsOpen] = useState(false);
  const updown = useUpDown();
  const lowDataPref = useLowDataPref();
  const [lowDataOpen, setLowDataOpen] = useState(false);
  const hasTrade = settings.hasTradePassword;
  const kept = useOfflineKept();

  return (
    <main>
      <PageHeader title={t('settings.title')} />
      <h2 className={s.group}>{t('settings.security')}</h2>
      <div className={`${ui.card} ${s.list}`}>
        <RowLink to={PATHS.loginPassword} icon={<IconLock />} label={t('settings.loginPassword')} />
        <RowButton
          icon={<IconTicket />}
          label={t('settings.tradePassword')}
          value={hasTrade === undefined ? '' : t(hasTrade ? 'settings.tradeSet' : 'settings.tradeNotSet')}
          disabled={hasTrade === undefined}
          onClick={() => setTradeOpen(true)}
        />
        <RowLink
          to={PATHS.realName}
          onOpen={async () => {
            const kyc = await settings.kycBeforeEntry();
            navigate(PATHS.realName, { state: { kyc } });
          }}
          icon={<IconShield />}
          label={t('settings.realName')}
          value={settings.kycStatus === undefined ? '' : t(KYC_LABEL[settings.kycStatus])}
        />
        <RowLink to={PATHS.bankCards} icon={<IconCard />} label={t('settings.bankCards')} />
        <RowLink
          to={PATHS.security}
          icon={<IconFingerprint />}
          label={t('settings.twoFactor')}
          value={
            settings.twoFactor === undefined
              ? ''
              : t(settings.twoFactor ? 'settings.twoFactorOn' : 'settings.twoFactorOff')
          }
        />
      </div>
      <h2 className={s.group}>{t('settings.preferences')}</h2>
      <div className={`${ui.card} ${s.list}`}>
        <RowLink to={PATHS.notificationSettings} icon={<IconBell />} label={t('notices.settings.entry')} />
        <RowButton
          icon={<IconGlobe />}
          label={t('core.language.title')}
          value={NATIVE[i18n.language as Language] ?? i18n.language}
          onClick={() => setLanguageOpen(true)}
        />
        <RowButton
          icon={<IconMarkets />}
          label={t('core.updown.title')}
          value={
            <span className={s.updownValue}>
              <span className={s.dotUp} aria-hidden="true" />
              {t(updown.mode === 'red-up' ? 'core.updown.redUp' : 'core.updown.greenUp')}
            </span>
          }
          onClick={() => setColorsOpen(true)}
        />
        <RowButton
          icon={<IconOffline />}
          label={t('core.lowData.title')}
          value={t(`core.lowData.${lowDataPref}`)}
          onClick={() => setLowDataOpen(true)}
        />
        <RowContentStatic
          icon={<IconDevice />}
          label={t('settings.offlineData')}
          value={kept === null ? '' : t(kept ? 'settings.offlineKept' : 'settings.offlineMayClear')}
        />
        {iosCanAdd() && (
          <RowButton icon={<IconDevice />} label={t('settings.homeScreen')} onClick={() => openIosGuide()} />
        )}
      </div>
      <div className={`${ui.card} ${s.list}`}>
        <button type="button" className={`${s.row} ${s.danger}`} onClick={() => settings.setConfirming(true)}>
          <IconLogout />
          <span className={s.rowLabel}>{t('settings.logout')}</span>
        </button>
      </div>

      {hasTrade !== undefined && (
        <TradePasswordDialog
          open={tradeOpen}
          mode={hasTrade ? 'change' : 'first'}
          onClose={() => setTradeOpen(false)}
          onDone={() => {
            setTradeOpen(false);
            settings.reloadInfo();
          }}
        />
      )}
      <LanguageSheet open={languageOpen} onClose={() => setLanguageOpen(false)} />
      <Dialog open={colorsOpen} onClose={() => setColorsOpen(false)} title={t('core.updown.title')} sheet>
        <ul className={`${ui.choices} ${s.options}`}>
          {(['green-up', 'red-up'] as UpDown[]).map((mode) => (
            <li key={mode}>
              <button
                type="button"
                className={`${ui.choice} ${s.option}`}
                aria-current={updown.mode === mode ? 'true' : undefined}
                data-mode={mode}
                onClick={() => {
                  updown.setMode(mode);
                  setColorsOpen(false);
                }}
              >
                <span className={s.swatches} aria-hidden="true">
                  <span className={mode === 'green-up' ? s.green : s.red}>▲</span>
                  <span className={mode === 'green-up' ? s.red : s.green}>▼</span>
                </span>
                <span className={s.rowLabel}>
                  {t(mode === 'red-up' ? 'core.updown.redUp' : 'core.updown.greenUp')}
                </span>
                {updown.mode === mode && <IconCheck size={18} />}
              </button>
            </li>
          ))}
        </ul>
      </Dialog>
      <Dialog open={lowDataOpen} onClose={() => setLowDataOpen(false)} title={t('core.lowData.title')} sheet>
        <p className={s.sheetHint}>{t('core.lowData.hint')}</p>
        <ul className={`${ui.choices} ${s.options}`}>
          {(['auto', 'on', 'off'] as const).map((pref) => (
            <li key={pref}>
              <button
                type="button"
                className={`${ui.choice} ${s.option}`}
                aria-current={lowDataPref === pref ? 'true' : undefined}
                onClick={() => {
                  setLowDataPref(pref);
                  setLowDataOpen(false);
                }}
              >
                <span className={s.rowLabel}>{t(`core.lowData.${pref}`)}</span>
                {lowDataPref === pref && <IconCheck size={18} />}
              </button>
            </li>
          ))}
        </ul>
      </Dialog>
      <ConfirmDialog
        open={settings.confirming}
        title={t('settings.logoutConfirmTitle')}
        message={t('settings.logoutConfirm')}
        confirmLabel={t('settings.logout')}
        danger
        busy={settings.busy}
        onCancel={() => settings.setConfirming(false)}
        onConfirm={async () => {
          await settings.logout();
          settings.setConfirming(false);
          navigate(PATHS.login, { replace: true });
        }}
      />
    </main>
  );
}

/**
 * Whether the browser keeps the app's offline data (navigator.storage.persisted: asked for once
 * after sign-in or install, src/shell/homeScreen.ts); null until known or when it cannot say.
 */
function useOfflineKept(): boolean | null {
  const [kept, setKept] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void persisted().then((k) => live && setKept(k));
    return () => {
      live = false;
    };
  }, []);
  return kept;
}

/** A row that only tells (no action). */
function RowContentStatic(content: { icon: ReactNode; label: string; value?: ReactNode }) {
  return (
    <div className={s.row}>
      <RowContent {...content} action={false} />
    </div>
  );
}

/** A row's icon, label and value; the chevron marks one that opens something (`action`). */
function RowContent({
  icon,
  label,
  value,
  action = true,
}: {
  icon: ReactNode;
  label: string;
  value?: ReactNode;
  action?: boolean;
}) {
  return (
    <>
      <span className={s.rowIcon}>{icon}</span>
      {/* Label and value side by side while they fit; the value under the label when not. */}
      <span className={s.rowText}>
        <span className={s.rowLabel}>{label}</span>
        {value ? (
          <>
            {' '}
            <span className={s.rowValue}>{value}</span>
          </>
        ) : null}
      </span>
      {action && <IconChevron size={18} className={s.chevron} />}
    </>
  );
}

function RowLink({
  to,
  onOpen,
  ...content
}: {
  to: string;
  /** Opens the route itself (after some work) instead of the plain link. */
  onOpen?: () => void;
  icon: ReactNode;
  label: string;
  value?: ReactNode;
}) {
  return (
    <Link
      to={to}
      className={s.row}
      onClick={
        onOpen
          ? (e) => {
              // A modified click (new tab) keeps the browser's meaning.
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              onOpen();
            }
          : undefined
      }
    >
      <RowContent {...content} />
    </Link>
  );
}

function RowButton({
  onClick,
  disabled,
  ...content
}: {
  onClick: () => void;
  disabled?: boolean;
  icon: ReactNode;
  label: string;
  value?: ReactNode;
}) {
  return (
    <button type="button" className={s.row} onClick={onClick} disabled={disabled}>
      <RowContent {...content} />
    </button>
  );
}
