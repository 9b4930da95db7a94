import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { onNotice, onSessionEnded, worker } from '../api/client';
import { PATHS } from '../paths';
import type { AppRoute } from '../routes';
import { useSession } from '../store/session';
import { toast, useUi } from '../store/ui';
import { Toasts } from '../ui/Toasts';
import { AwaySheet, useMoneyNotices } from './AwaySheet';
import { BottomNav } from './BottomNav';
import { ConnectionBanner } from './ConnectionBanner';
import { DesktopWarning } from './DesktopWarning';
import { CLEARED, registerDeviceWipe } from './device';
import { InstallOffer, IosGuide } from './HomeScreenOffer';
import { IdentityNeeded } from './IdentityNeeded';
import { InboxWatcher } from './Inbox';
import { ServiceButton } from './ServiceButton';
import { SkipLink } from './SkipLink';
import { endSession } from './session';
import s from './shell.module.css';
import { useStartupLoad } from './startup';
import { useSwipeBack } from './swipeBack';
import { UpdatePrompt } from './UpdatePrompt';

registerDeviceWipe();

/**
 * Wraps every screen: the session guard (SPEC §2: visitors reach only the public screens; a signed
 * in user skips login), the offline banner, the desktop warning, the bottom navigation where the
 * route asks for it and no dialog is open, the floating customer-service button, the update
 * prompt, the swipe-back gesture and the toasts.
 */
export function AppShell({ route, children }: { route: AppRoute; children: ReactNode }) {
  const token = useSession((st) => st.token);
  // A session that ends while a screen is open (logout, expiry) leads to login without a way
  // back: only a visitor who opened a private link signed out is returned to it after login.
  const signedInHere = useRef(false);
  if (token) signedInHere.current = true;
  const userId = useSession((st) => st.userInfo?.id ?? null);
  const dialogs = useUi((u) => u.dialogs);
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useSwipeBack();

  useEffect(() => {
    void worker().setToken(token, userId);
  }, [token, userId]);
  // After the token reaches the worker (Comlink keeps the order of calls).
  useStartupLoad(token ? userId : null);

  useEffect(() => {
    return onSessionEnded((reason) => {
      void endSession().then(() => {
        navigate(PATHS.login, { replace: true });
        // Why: an ended session, or (SPEC §8) "Incorrect authorization key" for a token never issued.
        toast(reason, 'error');
      });
    });
  }, [navigate]);

  useEffect(
    () =>
      onNotice((key, params) =>
        toast(key, 'error', params, typeof params.detail === 'string' ? params.detail : undefined),
      ),
    [],
  );
  useMoneyNotices();

  if (!route.public && !token)
    return (
      <Navigate
        to={PATHS.login}
        replace
        state={signedInHere.current ? undefined : { from: location.pathname }}
      />
    );
  if (route.path === PATHS.login && token) return <Navigate to={PATHS.home} replace />;

  const showNav = route.nav && dialogs === 0;
  // The bottom navigation comes before the screen in the page's order (it is drawn at the bottom):
  // the keyboard reaches it after the skip link, not after every control of the screen. Screens with
  // it show customer service in their header; the others on the service bar (ServiceButton).
  return (
    <div className={`${s.page} ${route.nav ? s.withNav : ''}`}>
      <SkipLink />
      <ConnectionBanner />
      {showNav && <BottomNav />}
      {!route.public && <AwaySheet />}
      {!route.public && <InboxWatcher />}
      <DesktopWarning />
      {route.path === PATHS.login && sessionStorage.getItem(CLEARED) === '1' && (
        <p className={s.cleared} role="status">
          {t('core.deviceCleared')}
        </p>
      )}
      {!route.public && <InstallOffer />}
      {children}
      {!route.public && <IosGuide />}
      {!route.public && <IdentityNeeded />}
      {!route.public && !route.noService && !route.nav && <ServiceButton />}
      <UpdatePrompt raised={route.nav} />
      <Toasts />
    </div>
  );
}
