import { useState } from 'react';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { forgetPassword } from '../../auth/remember';
import type { KycState } from '../../shared/contract/settings';
import { endSession } from '../../shell/session';

/** How long opening real-name waits for its state before going in without it. */
const KYC_ENTRY_WAIT_MS = 2000;

/**
 * Settings (SPEC §2): what each row needs to say about itself — whether a transaction password
 * exists (first-time or modification dialog) and the real-name status — and logout (SPEC §4):
 * after confirmation the server revokes the token and the device forgets it — even offline — and
 * any remembered password (the phone number stays remembered).
 */
export function useSettings() {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const info = useWatch('userInfo', {}, 0);
  const kyc = useWatch('kycState', {}, 0);
  const security = useWatch('securityState', {}, 0);

  async function logout(): Promise<void> {
    setBusy(true);
    await call('logout', {});
    await forgetPassword();
    await endSession();
    setBusy(false);
  }

  /**
   * SPEC §2: the real-name state is fetched before entering its screen, and entry proceeds if that
   * fails — or takes longer than a moment: the screen then asks again itself.
   */
  async function kycBeforeEntry(): Promise<KycState | null> {
    const result = await Promise.race([
      call('kycState', {}),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), KYC_ENTRY_WAIT_MS)),
    ]);
    return result?.ok ? result.data : null;
  }

  return {
    kycBeforeEntry,
    confirming,
    setConfirming,
    busy,
    logout,
    /** Unknown until the account answers: the row then offers nothing it cannot keep. */
    hasTradePassword: info.data?.has_fund_password,
    reloadInfo: info.reload,
    kycStatus: kyc.data?.status,
    /** Two-step sign-in set up (a passkey or an authenticator app); unknown until answered. */
    twoFactor: security.data && (security.data.totp || security.data.passkeys.length > 0),
  };
}
