import { useState } from 'react';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { endSession } from '../../shell/session';

/**
 * Settings (SPEC §2): what each row needs to say about itself — whether a transaction password
 * exists (first-time or modification dialog) and the real-name status — and logout (SPEC §4):
 * after confirmation the server revokes the token and the device forgets it — even offline.
 */
export function useSettings() {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const info = useWatch('userInfo', {}, 0);
  const kyc = useWatch('kycState', {}, 0);

  async function logout(): Promise<void> {
    setBusy(true);
    await call('logout', {});
    await endSession();
    setBusy(false);
  }

  return {
    confirming,
    setConfirming,
    busy,
    logout,
    /** Unknown until the account answers: the row then offers nothing it cannot keep. */
    hasTradePassword: info.data?.has_fund_password,
    reloadInfo: info.reload,
    kycStatus: kyc.data?.status,
  };
}
