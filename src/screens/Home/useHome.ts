import { useWatch } from '../../api/hooks';

/** SPEC §7 polling: account info every 3 s. */
export const ACCOUNT_POLL_MS = 3000;

export function useHome() {
  const info = useWatch('userInfo', {}, ACCOUNT_POLL_MS);
  return { info };
}
