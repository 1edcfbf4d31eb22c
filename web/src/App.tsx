import { Spinner } from '@blueprintjs/core';
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { LgpdBanner } from './components/LgpdBanner';
import { AuthLayout } from './features/auth/AuthLayout';
import { LoginPage } from './features/auth/login/LoginPage';
// 'Esqueceu sua senha?' is one small field in the login's layout: loaded with it, the form
// appears at once, without a spinner that it then pushes down (a layout shift).
import { RecoveryPage } from './features/auth/recovery/RecoveryPage';
import { Guard } from './app/Guard';
import { PANEL_BASE, PANEL_ROUTES, type PanelRoute } from './lib/guards';
import { setNavigator } from './lib/navigation';

/**
 * Every screen but Login is its own chunk, loaded when its route is first
 * opened: the login page's first load carries neither the dashboard's charts
 * nor the forms (docs/web.md "First load and big lists").
 */
const preloads: (() => Promise<unknown>)[] = [];

function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((m) => {
      loaded = m[name];
      return { default: loaded };
    });
  preloads.push(preload);
  // Once loaded, a thenable that resolves at once: React renders it without suspending.
  return lazy(() =>
    loaded ? ({ then: (resolve: (m: { default: ComponentType }) => void) => resolve({ default: loaded! }) } as Promise<{ default: ComponentType }>) : preload(),
  );
}

/** Loads every screen's chunk (the unit tests render the routes synchronously). */
export function preloadScreens(): Promise<unknown> {
  return Promise.all(preloads.map((p) => p()));
}

const ResetPasswordPage = screen(() => import('./features/auth/recovery/ResetPasswordPage'), 'ResetPasswordPage');
const PanelLayout = screen(() => import('./app/PanelLayout'), 'PanelLayout');
const ContactPage = screen(() => import('./features/contact/ContactPage'), 'ContactPage');
const RegistrationPage = screen(() => import('./features/registration/RegistrationPage'), 'RegistrationPage');
const DashboardPage = screen(() => import('./features/dashboard/DashboardPage'), 'DashboardPage');
const ReportsPage = screen(() => import('./features/reports/ReportsPage'), 'ReportsPage');
const HistoryPage = screen(() => import('./features/history/HistoryPage'), 'HistoryPage');
const OpportunityDetailsPage = screen(
  () => import('./features/opportunities/details/OpportunityDetailsPage'),
  'OpportunityDetailsPage',
);
const OpportunitiesPage = screen(() => import('./features/opportunities/list/OpportunitiesPage'), 'OpportunitiesPage');
const RegistrationOpportunityPage = screen(
  () => import('./features/opportunities/registration/RegistrationOpportunityPage'),
  'RegistrationOpportunityPage',
);
const ResaleDetailsPage = screen(() => import('./features/resales/details/ResaleDetailsPage'), 'ResaleDetailsPage');
const ResalesPage = screen(() => import('./features/resales/list/ResalesPage'), 'ResalesPage');
const UsersPage = screen(() => import('./features/users/list/UsersPage'), 'UsersPage');
const SellerRegistrationPage = screen(
  () => import('./features/users/registration/SellerRegistrationPage'),
  'SellerRegistrationPage',
);
const UserDetailsPage = screen(() => import('./features/users/details/UserDetailsPage'), 'UserDetailsPage');
const SettingsPage = screen(() => import('./features/settings/SettingsPage'), 'SettingsPage');
const CoveragePage = screen(() => import('./features/coverage/CoveragePage'), 'CoveragePage');

if (import.meta.env.MODE === 'test') await preloadScreens();

/** While a screen's chunk loads: a spinner where the screen will be. */
function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="route-loading" role="status" aria-label="Carregando">
          <Spinner size={32} />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

function screenFor(route: PanelRoute) {
  switch (route.path) {
    case 'Dashboard':
      return <DashboardPage />;
    case 'Reports':
      return <ReportsPage />;
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
    case 'Coverage':
      return <CoveragePage />;
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
          <Route path="reset-password" element={<Loading><ResetPasswordPage /></Loading>} />
        </Route>
        <Route path="Registration" element={<Loading><RegistrationPage /></Loading>} />
        <Route path="Contact" element={<Loading><ContactPage /></Loading>} />
        <Route
          path={PANEL_BASE}
          element={
            <Guard roles={null}>
              <Loading>
                <PanelLayout />
              </Loading>
            </Guard>
          }
        >
          <Route index element={<PanelIndex />} />
          {PANEL_ROUTES.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={
                <Guard roles={route.roles}>
                  <Loading>{screenFor(route)}</Loading>
                </Guard>
              }
            />
          ))}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
      <LgpdBanner />
    </>
  );
}
