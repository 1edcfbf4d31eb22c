import { useEffect } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { LgpdBanner } from './components/LgpdBanner';
import { AuthLayout } from './features/auth/AuthLayout';
import { LoginPage } from './features/auth/login/LoginPage';
import { RecoveryPage } from './features/auth/recovery/RecoveryPage';
import { ResetPasswordPage } from './features/auth/recovery/ResetPasswordPage';
import { Guard } from './features/panel/Guard';
import { PanelLayout } from './features/panel/PanelLayout';
import { ContactPage } from './features/contact/ContactPage';
import { RegistrationPage } from './features/registration/RegistrationPage';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { HistoryPage } from './features/history/HistoryPage';
import { OpportunityDetailsPage } from './features/opportunities/details/OpportunityDetailsPage';
import { OpportunitiesPage } from './features/opportunities/list/OpportunitiesPage';
import { RegistrationOpportunityPage } from './features/opportunities/registration/RegistrationOpportunityPage';
import { ResaleDetailsPage } from './features/resales/details/ResaleDetailsPage';
import { ResalesPage } from './features/resales/list/ResalesPage';
import { UsersPage } from './features/users/list/UsersPage';
import { SellerRegistrationPage } from './features/users/registration/SellerRegistrationPage';
import { UserDetailsPage } from './features/users/details/UserDetailsPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { PANEL_BASE, PANEL_ROUTES, type PanelRoute } from './lib/guards';
import { setNavigator } from './lib/navigation';

function screenFor(route: PanelRoute) {
  switch (route.path) {
    case 'Dashboard':
      return <DashboardPage />;
    case 'Opportunities':
      return <OpportunitiesPage />;
    case 'Opportunities/registration':
      return <RegistrationOpportunityPage />;
    case 'Opportunities/:id':
      return <OpportunityDetailsPage />;
    case 'History/:id':
      return <HistoryPage />;
    case 'Resales':
      return <ResalesPage />;
    case 'Resales/details':
      return <ResaleDetailsPage />;
    case 'Users':
      return <UsersPage />;
    case 'Users/registration':
      return <SellerRegistrationPage />;
    case 'Settings':
      return <SettingsPage />;
    case 'Users/:id':
      return <UserDetailsPage />;
    default:
      throw new Error(`no screen for the panel route ${route.path}`);
  }
}

/** `/Painel` itself redirects to Opportunities, which every role may open (spec §2). */
function PanelIndex() {
  return <Navigate to={`${PANEL_BASE}/Opportunities`} replace />;
}

/** Lets the HTTP client navigate inside the router (e.g. to `/` after a failed refresh). */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => setNavigator((to) => navigate(to, { replace: true })), [navigate]);
  return null;
}

/** The route table (spec §2). */
export function AppRoutes() {
  return (
    <>
      <NavigatorBridge />
      <Routes>
        <Route element={<AuthLayout />}>
          <Route index element={<LoginPage />} />
          <Route path="recovery-password" element={<RecoveryPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
        </Route>
        <Route path="Registration" element={<RegistrationPage />} />
        <Route path="Contact" element={<ContactPage />} />
        <Route
          path={PANEL_BASE}
          element={
            <Guard roles={null}>
              <PanelLayout />
            </Guard>
          }
        >
          <Route index element={<PanelIndex />} />
          {PANEL_ROUTES.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={<Guard roles={route.roles}>{screenFor(route)}</Guard>}
            />
          ))}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
      <LgpdBanner />
    </>
  );
}
