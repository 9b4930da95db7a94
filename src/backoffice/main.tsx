import './base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { OPS_PATHS } from './paths';
import { Shell } from './Shell';
import { AuditScreen } from './screens/Audit/AuditScreen';
import { ChatsScreen } from './screens/Chats/ChatsScreen';
import { CustomerScreen } from './screens/Customer/CustomerScreen';
import { CustomersScreen } from './screens/Customers/CustomersScreen';
import { DepositsScreen } from './screens/Deposits/DepositsScreen';
import { Enrol } from './screens/Enrol';
import { FxScreen } from './screens/Fx/FxScreen';
import { IpoScreen } from './screens/Ipo/IpoScreen';
import { KycCaseScreen } from './screens/KycCase/KycCaseScreen';
import { KycListScreen } from './screens/KycList/KycListScreen';
import { LoansScreen } from './screens/Loans/LoansScreen';
import { NewsScreen } from './screens/News/NewsScreen';
import { PayoutsScreen } from './screens/Payouts/PayoutsScreen';
import { QueuesScreen } from './screens/Queues/QueuesScreen';
import { SignIn } from './screens/SignIn';
import { StaffScreen } from './screens/Staff/StaffScreen';
import { SessionProvider, useSession } from './session';

/**
 * The back office, served at /ops/ by the same server as the app, from a build of its
 * own. Which screen shows follows the session's stage: none → sign-in, `enrol` → set up a second
 * factor, `verify` → give it, `full` → the back office.
 */
function App() {
  const { me, checking } = useSession();
  const { pathname } = useLocation();
  if (checking) return null;
  if (me?.stage === 'enrol' || (pathname === '/enrol' && !me)) return <Enrol />;
  if (me?.stage !== 'full') return <SignIn />;
  return (
    <Routes>
      <Route
        path="/"
        element={
          <Shell>
            <QueuesScreen />
          </Shell>
        }
      />
      <Route
        path="/chats"
        element={
          <Shell flush>
            <ChatsScreen />
          </Shell>
        }
      />
      <Route
        path="/chats/:userId"
        element={
          <Shell flush>
            <ChatsScreen />
          </Shell>
        }
      />
      <Route
        path="/kyc"
        element={
          <Shell>
            <KycListScreen />
          </Shell>
        }
      />
      <Route
        path="/kyc/:userId"
        element={
          <Shell>
            <KycCaseScreen />
          </Shell>
        }
      />
      <Route
        path="/payouts"
        element={
          <Shell>
            <PayoutsScreen />
          </Shell>
        }
      />
      <Route
        path="/deposits"
        element={
          <Shell>
            <DepositsScreen />
          </Shell>
        }
      />
      <Route
        path="/loans"
        element={
          <Shell>
            <LoansScreen />
          </Shell>
        }
      />
      <Route
        path="/ipo"
        element={
          <Shell>
            <IpoScreen />
          </Shell>
        }
      />
      <Route
        path="/fx"
        element={
          <Shell>
            <FxScreen />
          </Shell>
        }
      />
      <Route
        path="/news"
        element={
          <Shell>
            <NewsScreen />
          </Shell>
        }
      />
      <Route
        path="/audit"
        element={
          <Shell>
            <AuditScreen />
          </Shell>
        }
      />
      <Route
        path="/staff"
        element={
          <Shell>
            <StaffScreen />
          </Shell>
        }
      />
      <Route
        path="/customers/:id"
        element={
          <Shell>
            <CustomerScreen />
          </Shell>
        }
      />
      <Route
        path={OPS_PATHS.customers}
        element={
          <Shell>
            <CustomersScreen />
          </Shell>
        }
      />
      <Route path="*" element={<Navigate to={OPS_PATHS.queues} replace />} />
    </Routes>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/ops">
      <SessionProvider>
        <App />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
