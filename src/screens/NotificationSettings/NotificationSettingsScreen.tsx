import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';
import type { PushPrefs } from '../../shared/contract/push';
import { deviceTimeZone } from '../../shared/format';
import { type Notice, noticeText, PUSH_TOGGLE_KINDS } from '../../shared/notices';
import { openIosGuide } from '../../shell/homeScreen';
import {
  Button,
  IconBell,
  IconDevice,
  IconTrash,
  ObjectStates,
  PageHeader,
  Skeleton,
  ui,
  useDates,
} from '../../ui';
import s from './notificationSettings.module.css';
import { type DeviceState, useNotificationSettings } from './useNotificationSettings';

/** What the preview shows: a fill, as the lock screen would show it. */
const SAMPLE: Notice = {
  kind: 'order',
  symbol: 'RELIANCE.NS',
  params: { event: 'filled', side: 'buy', count: 10, price: 2440, decimals: 2, region: 'IN', no: 'S1' },
};

/**
 * Settings → Notifications: this device's notifications on or off — the browser's
 * permission asked only from the tap, after a preview of what will arrive (on iOS outside the home
 * screen, the add-to-home-screen guide first; where the browser has no Web Push, a plain "not
 * supported here") — and what is sent to every device: the groups, amounts on the lock screen
 * (off by default), quiet hours, and the devices that receive them.
 */
export default function NotificationSettingsScreen() {
  const { t } = useTranslation();
  const n = useNotificationSettings();
  return (
    <main className={s.page}>
      <PageHeader title={t('notices.settings.title')} back={PATHS.settings} />
      <ObjectStates
        data={n.settings.data && n.prefs ? n.prefs : undefined}
        error={n.settings.error}
        onRetry={n.settings.reload}
        loading={<Skeleton height={240} />}
      >
        {(prefs) => (
          <>
            <section className={`${ui.card} ${s.card}`} aria-labelledby="push-device">
              <h2 id="push-device" className={s.heading}>
                {t('notices.settings.device.title')}
              </h2>
              <DeviceCard
                state={n.device}
                busy={n.busy}
                amounts={prefs.amounts}
                onOn={n.enable}
                onOff={n.disable}
              />
            </section>
            <Preferences prefs={prefs} save={n.save} />
            <Devices devices={n.settings.data?.devices ?? []} thisDevice={n.thisDevice} remove={n.remove} />
          </>
        )}
      </ObjectStates>
    </main>
  );
}

function Preview({ amounts }: { amounts: boolean }) {
  const { t } = useTranslation();
  const text = noticeText(SAMPLE, t, amounts);
  return (
    <figure className={s.preview} aria-label={t('notices.settings.preview')}>
      <img src="/icons/icon-192.png" alt="" width={32} height={32} className={s.previewIcon} />
      <figcaption className={s.previewText}>
        <span className={s.previewApp}>Bourse</span>
        <strong className={s.previewTitle}>{text.title}</strong>
        <span className={s.previewBody}>{text.body}</span>
      </figcaption>
    </figure>
  );
}

function DeviceCard({
  state,
  busy,
  amounts,
  onOn,
  onOff,
}: {
  state: DeviceState;
  busy: boolean;
  amounts: boolean;
  onOn: () => void;
  onOff: () => void;
}) {
  const { t } = useTranslation();
  switch (state) {
    case 'unsupported':
      return (
        <p className={s.note} data-testid="push-unsupported">
          {t('notices.settings.device.unsupported')}
        </p>
      );
    case 'iosInstall':
      return (
        <>
          <p className={s.note}>{t('notices.settings.device.iosInstall')}</p>
          <Button variant="secondary" block onClick={() => openIosGuide()}>
            {t('notices.settings.device.iosGuide')}
          </Button>
        </>
      );
    case 'denied':
      return <p className={s.note}>{t('notices.settings.device.denied')}</p>;
    case 'checking':
      return <Skeleton height={44} />;
    case 'on':
      return (
        <>
          <p className={s.status} data-testid="push-on">
            <IconBell size={18} /> {t('notices.settings.device.on')}
          </p>
          <Button variant="secondary" block loading={busy} onClick={onOff}>
            {t('notices.settings.device.turnOff')}
          </Button>
        </>
      );
    default:
      return (
        <>
          <p className={s.note}>{t('notices.settings.device.intro')}</p>
          <Preview amounts={amounts} />
          <Button block loading={busy} onClick={onOn}>
            {busy ? t('notices.settings.device.turningOn') : t('notices.settings.device.turnOn')}
          </Button>
        </>
      );
  }
}

function Toggle({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  hint?: string;
}) {
  return (
    <label className={s.toggle}>
      <span className={s.toggleText}>
        <span>{label}</span>
        {hint && <span className={s.hint}>{hint}</span>}
      </span>
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        className={s.switch}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
    </label>
  );
}

function Preferences({ prefs, save }: { prefs: PushPrefs; save: (p: PushPrefs) => void }) {
  const { t } = useTranslation();
  const zone = deviceTimeZone();
  const quiet = prefs.quiet;
  return (
    <>
      <section className={`${ui.card} ${s.card}`} aria-labelledby="push-kinds">
        <h2 id="push-kinds" className={s.heading}>
          {t('notices.settings.kinds.title')}
        </h2>
        {PUSH_TOGGLE_KINDS.map((kind) => (
          <Toggle
            key={kind}
            label={t(`notices.settings.kinds.${kind}`)}
            checked={prefs.kinds[kind]}
            onChange={(on) => save({ ...prefs, kinds: { ...prefs.kinds, [kind]: on } })}
          />
        ))}
        <p className={s.hint}>{t('notices.settings.kinds.security')}</p>
      </section>
      <section className={`${ui.card} ${s.card}`} aria-labelledby="push-lock">
        <h2 id="push-lock" className={s.heading}>
          {t('notices.settings.lock.title')}
        </h2>
        <Toggle
          label={t('notices.settings.lock.amounts')}
          checked={prefs.amounts}
          onChange={(on) => save({ ...prefs, amounts: on })}
          hint={t(prefs.amounts ? 'notices.settings.lock.shown' : 'notices.settings.lock.private')}
        />
        <Preview amounts={prefs.amounts} />
      </section>
      <section className={`${ui.card} ${s.card}`} aria-labelledby="push-quiet">
        <h2 id="push-quiet" className={s.heading}>
          {t('notices.settings.quiet.title')}
        </h2>
        <Toggle
          label={t('notices.settings.quiet.toggle')}
          checked={quiet !== null}
          onChange={(on) => save({ ...prefs, quiet: on ? { start: '22:00', end: '07:00', tz: zone } : null })}
          hint={t('notices.settings.quiet.hint')}
        />
        {quiet && (
          <div className={s.times}>
            {(['start', 'end'] as const).map((edge) => (
              <label key={edge} className={s.time}>
                <span>
                  {t(edge === 'start' ? 'notices.settings.quiet.from' : 'notices.settings.quiet.to')}
                </span>
                <input
                  type="time"
                  className={s.timeInput}
                  value={quiet[edge]}
                  required
                  onChange={(e) => {
                    if (
                      /^\d\d:\d\d$/.test(e.target.value) &&
                      e.target.value !== quiet[edge === 'start' ? 'end' : 'start']
                    )
                      save({ ...prefs, quiet: { ...quiet, [edge]: e.target.value } });
                  }}
                />
              </label>
            ))}
            <p className={s.hint}>{t('notices.settings.quiet.zone', { zone: quiet.tz })}</p>
          </div>
        )}
      </section>
    </>
  );
}

function Devices({
  devices,
  thisDevice,
  remove,
}: {
  devices: Array<{ id: number; device: string; last_success_at: number | null }>;
  thisDevice: number | null;
  remove: (id: number) => void;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <section className={`${ui.card} ${s.card}`} aria-labelledby="push-devices">
      <h2 id="push-devices" className={s.heading}>
        {t('notices.settings.devices.title')}
      </h2>
      {devices.length === 0 ? (
        <p className={s.note}>{t('notices.settings.devices.empty')}</p>
      ) : (
        <ul className={s.devices}>
          {devices.map((d) => (
            <li key={d.id} className={s.device}>
              <IconDevice size={20} />
              <span className={s.toggleText}>
                <span>
                  {d.device}
                  {d.id === thisDevice && ` · ${t('notices.settings.devices.thisDevice')}`}
                </span>
                <span className={s.hint}>
                  {d.last_success_at === null
                    ? t('notices.settings.devices.never')
                    : t('notices.settings.devices.lastSent', { when: dates.dateTime(d.last_success_at) })}
                </span>
              </span>
              <button
                type="button"
                className={ui.iconButton}
                aria-label={t('notices.settings.devices.remove', { device: d.device })}
                onClick={() => remove(d.id)}
              >
                <IconTrash size={18} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
