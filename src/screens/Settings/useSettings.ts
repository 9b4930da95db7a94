import { useState } from 'react';
import { call } from '../../api/client';
import { endSession } from '../../shell/session';

/** Logout (SPEC §4): after confirmation the server revokes the token and the device forgets it — even offline. */
export function useSettings() {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function logout(): Promise<void> {
    setBusy(true);
    await call('logout', {});
    await endSession();
    setBusy(false);
  }

  return { confirming, setConfirming, busy, logout };
}
