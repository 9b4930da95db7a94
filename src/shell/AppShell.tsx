import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { onNotice, onSessionEnded, worker } from '../api/client';
import { PATHS } from '../paths';
import type { AppRoute } from '../routes';
import { useSession } from '../store/session';
import { toast, useUi } from '../store/ui';
import { Toasts } from '../ui/Toasts';
import { ConnectionBanner } from './ConnectionBanner';
import { DesktopWarning } from './DesktopWarning';
import { CLEARED, registerDeviceWipe } from './device';
import { useMoneyNotices } from './moneyNotices';
import { useNotificationClicks } from './notificationClicks';
import { SkipLink } from './SkipLink';
import { useSecurityChangesLoad } from './securityChanges';
import { endSession } from './session';
import s from './shell.module.css';
import { afterFirstScreen, loadLaterParts, loadLockScreen, loadSignedInParts } from './signedInParts';
import { useStartupLoad } from './startup';
import { useStepUp } from './stepUp';
import { useSwipeBack } from './swipeBack';
import { UpdatePrompt } from './UpdatePrompt';

registerDeviceWipe();

/*
 * The signed-in parts of a first screen (src/shell/signedIn.ts) suspend the route's Suspense until
 * they have arrived, as its screen does: a screen never shows without its navigation bar. Login
 * renders none of them. One that could not be fetched (the connection) leaves nothing, and is asked
 * for again at the next screen, rather than taking the screen with it.
 */
function lazyPart<M>(load: () => Promise<M>, name: keyof M): ComponentType {
  let current: LazyExoticComponent<ComponentType> | null = null;
  /** The screen on which the part could not be fetched: it is asked for again on another. */
  let failedOn: string | null = null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per part, at module level, so its identity never changes
  return function SignedInPart() {
    const { pathname } = useLocation();
    if (failedOn !== null && failedOn !== pathname) {
      current = null;
      failedOn = null;
    }
    // A failed load stays failed (rendering nothing) until the next screen: forgotten at once, the
    // render after it asked again, failed again and so on — thousands of fetches a minute while the
    // server restarted, and the route's Suspense never showed its screen (a blank page).
    current ??= lazy<ComponentType>(() =>
      load().then(
        (m): { default: ComponentType } => ({ default: m[name] as ComponentType }),
        (error: unknown) => {
          console.warn('not loaded:', error);
          failedOn = pathname;
          return { default: () => null };
        },
      ),
    );
    const Loaded = current;
    return <Loaded />;
  };
}
const part = (name: keyof typeof import('./signedIn')) => lazyPart(loadSignedInParts, name);
const BottomNav = part('BottomNav');
const FrozenBanner = part('FrozenBanner');
const InboxWatcher = part('InboxWatcher');
const ServiceButton = part('ServiceButton');
// The sheets and offers (src/shell/signedInLater.ts) show only once something happens: they are
// loaded once the first screen has shown, and render nothing until then (`Later`).
const later = (name: keyof typeof import('./signedInLater')) => lazyPart(loadLaterParts, name);
const AwaySheet = later('AwaySheet');
const InstallOffer = later('InstallOffer');
const IosGuide = later('IosGuide');
const IdentityNeeded = later('IdentityNeeded');
const SecurityChanged = later('SecurityChanged');

let firstScreenShown = false;
/** Renders its children once the first screen has shown (`afterFirstScreen`), in a boundary of their own. */
function Later({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(firstScreenShown);
  useEffect(() => {
    if (shown) return;
    let live = true;
    void afterFirstScreen().then(() => {
      firstScreenShown = true;
      if (live) setShown(true);
    });
    return () => {
      live = false;
    };
  }, [shown]);
  return shown ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** The step-up sheet loads the first time a change asks for a proof. */
const StepUpSheet = lazy(() => import('../screens/_parts/security/StepUpSheet'));

/**
 * Wraps every screen: the session guard (SPEC §2: visitors reach only the public screens; a signed
 * in user skips login), the offline banner, the desktop warning, the bottom navigation where the
 * route asks for it and no dialog is open, the floating customer-service button, the update
 * prompt, the swipe-back gesture and the toasts.
 */
export function AppShell({ route, children }: { route: AppRoute; children: ReactNode }) {
  const token = useSession((st) => st.token);
  // A session that ends while this page holds it (logout, expiry, ended elsewhere) leads to login
  // without a way back: only a visitor who opened a private link signed out is returned to it.
  const held = useSession((st) => st.held);
  const userId = useSession((st) => st.userInfo?.id ?? null);
  const dialogs = useUi((u) => u.dialogs);
  const steppingUp = useStepUp((st) => st.settle !== null);
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useSwipeBack();

  useEffect(() => {
    void worker().setToken(token, userId);
  }, [token, userId]);
  // After the token reaches the worker (Comlink keeps the order of calls).
  useStartupLoad(token ? userId : null);
  useSecurityChangesLoad(route.public ? null : token);
  useNotificationClicks();
  // The lock screen's code is on the device before the lock can close (the phone back from the
  // background, perhaps without a connection): fetched then, its failure would leave no lock
  // screen to show.
  const signedIn = !route.public && token !== null;
  useEffect(() => {
    if (signedIn) void afterFirstScreen().then(() => loadLockScreen().catch(() => undefined));
  }, [signedIn]);

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
    return <Navigate to={PATHS.login} replace state={held ? undefined : { from: location.pathname }} />;
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
      {!route.public && (
        <Later>
          <AwaySheet />
        </Later>
      )}
      {!route.public && <InboxWatcher />}
      {!route.public && <FrozenBanner />}
      <DesktopWarning />
      {route.path === PATHS.login && sessionStorage.getItem(CLEARED) === '1' && (
        <p className={s.cleared} role="status">
          {t('core.deviceCleared')}
        </p>
      )}
      {!route.public && (
        <Later>
          <InstallOffer />
        </Later>
      )}
      {/* The skip link's target (its href names it; Lighthouse and screen readers check it exists);
          display: contents keeps the screen a child of the page's column. */}
      <div id="main" className={s.content}>
        {children}
      </div>
      {!route.public && (
        <Later>
          <IosGuide />
          <IdentityNeeded />
          <SecurityChanged />
        </Later>
      )}
      {steppingUp && (
        <Suspense fallback={null}>
          <StepUpSheet />
        </Suspense>
      )}
      {!route.public && !route.noService && !route.nav && <ServiceButton />}
      <UpdatePrompt raised={route.nav} />
      <Toasts />
    </div>
  );
}
