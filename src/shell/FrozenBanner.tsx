import { useTranslation } from 'react-i18next';
import { useWatch } from '../api/hooks';
import s from './shell.module.css';

/**
 * How often a screen without its own account poll asks whether the account is frozen: a freeze
 * also ends every session, so this only has to catch the rare unfreeze or freeze while signed in.
 * Screens that poll user info (Home, Account, the money screens) share their faster poll.
 */
const FROZEN_POLL_MS = 60_000;

/**
 * A frozen account (staff's freeze, `frozen` in user info) says so on every signed-in screen,
 * before the customer fills a ticket or a form that the server will refuse: what is paused, what
 * still works, and where to ask (the chat, on every screen). Last-known, like the rest: an account
 * known frozen stays marked while the server is silent.
 */
export function FrozenBanner() {
  const { t } = useTranslation();
  const info = useWatch('userInfo', {}, FROZEN_POLL_MS);
  if (!info.data?.frozen) return null;
  return (
    <p className={s.frozen} role="status" data-testid="account-frozen">
      {t('errors.accountFrozen')}
    </p>
  );
}
