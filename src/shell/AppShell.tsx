import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { onNotice, onSessionEnded, worker } from '../api/client';
import type { AppRoute } from '../routes';
import { useSession } from '../store/session';
import { toast, useUi } from '../store/ui';
import { Toasts } from '../ui/Toasts';
import { BottomNav } from './BottomNav';
import { DesktopWarning } from './DesktopWarning';
import { registerDeviceWipe } from './device';
import { OfflineBanner } from './OfflineBanner';
import { ServiceButton } from './ServiceButton';
import { endSession } from './session';
import s from './shell.module.css';
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
  const userId = useSession((st) => st.userInfo?.id ?? null);
  const dialogs = useUi((u) => u.dialogs);
  const location = useLocation();
  const navigate = useNavigate();
  useSwipeBack();

  useEffect(() => {
    void worker().setToken(token, userId);
  }, [token, userId]);

  useEffect(() => {
    onSessionEnded(() => {
      void endSession().then(() => navigate('/login', { replace: true }));
    });
  }, [navigate]);

  useEffect(() => onNotice((key, params) => toast(key, 'error', params)), []);

  if (!route.public && !token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (route.path === '/login' && token) return <Navigate to="/" replace />;

  const showNav = route.nav && dialogs === 0;
  return (
    <div className={`${s.page} ${route.nav ? s.withNav : ''}`}>
      <OfflineBanner />
      <DesktopWarning />
      {children}
      {!route.public && !route.noService && <ServiceButton raised={route.nav} />}
      {showNav && <BottomNav />}
      <UpdatePrompt raised={route.nav} />
      <Toasts />
    </div>
  );
}
