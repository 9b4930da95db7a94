import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import type { PushPrefs } from '../../shared/contract/push';
import {
  browserSubscription,
  notificationPermission,
  type PushSupport,
  pushSupport,
  turnOff,
  turnOn,
} from '../../shell/push';
import { storedDeviceId } from '../../shell/pushDevice';
import { toast } from '../../store/ui';

/** This device's state: what the browser allows, and whether it is subscribed with the server. */
export type DeviceState = PushSupport | 'denied' | 'off' | 'on' | 'checking';

/**
 * Settings → Notifications: the server's preferences and devices (`pushSettings`), this
 * device's subscription (src/shell/push.ts) and the changes the screen makes. The permission is
 * asked only from the "Turn on" tap; a preference is saved as it is changed.
 */
export function useNotificationSettings() {
  const { i18n } = useTranslation();
  const settings = useWatch('pushSettings', {}, 0);
  const [support] = useState(pushSupport);
  const [permission, setPermission] = useState(notificationPermission);
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [prefs, setPrefs] = useState<PushPrefs | null>(null);
  const devices = settings.data?.devices;

  useEffect(() => {
    if (settings.data) setPrefs(settings.data.prefs);
  }, [settings.data]);

  // This device is on when the browser has a subscription and the server lists the one it made.
  useEffect(() => {
    if (support !== 'supported' || devices === undefined) return;
    let live = true;
    void browserSubscription().then((sub) => {
      const id = storedDeviceId();
      if (live) setSubscribed(sub !== null && id !== null && devices.some((d) => d.id === id));
    });
    return () => {
      live = false;
    };
  }, [support, devices]);

  const device: DeviceState =
    support !== 'supported'
      ? support
      : permission === 'denied'
        ? 'denied'
        : subscribed === null
          ? 'checking'
          : subscribed
            ? 'on'
            : 'off';

  const enable = useCallback(async () => {
    const key = settings.data?.public_key;
    if (!key) return;
    setBusy(true);
    const result = await turnOn(key, i18n.language);
    setBusy(false);
    setPermission(notificationPermission());
    if (result.ok) {
      setSubscribed(true);
      settings.reload();
    } else if (result.reason !== 'denied')
      toast(result.reason === 'failed' ? 'notices.settings.device.failed' : result.reason, 'error');
  }, [settings, i18n.language]);

  const disable = useCallback(async () => {
    setBusy(true);
    const done = await turnOff();
    setBusy(false);
    if (!done) return toast('notices.settings.device.failed', 'error');
    setSubscribed(false);
    settings.reload();
  }, [settings]);

  const save = useCallback(
    async (next: PushPrefs) => {
      const before = prefs;
      setPrefs(next);
      const result = await call('pushPrefs', next);
      if (result.ok) setPrefs(result.data);
      else {
        setPrefs(before);
        toast(result.error, 'error');
      }
    },
    [prefs],
  );

  const remove = useCallback(
    async (id: number) => {
      const result = await call('pushUnsubscribe', { id });
      if (!result.ok) return toast(result.error, 'error');
      if (id === storedDeviceId()) await turnOff();
      settings.reload();
    },
    [settings],
  );

  return { settings, device, busy, prefs, enable, disable, save, remove, thisDevice: storedDeviceId() };
}
