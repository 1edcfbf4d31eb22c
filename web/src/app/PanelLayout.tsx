import { Button, Navbar, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { ArrowLeftIcon, MenuIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { signOut } from '@/lib/auth';
import { useBrand } from '@/lib/brand';
import { readSession } from '@/lib/session';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { GlobalSearch } from '@/features/search/GlobalSearch';
import { SideMenu } from './SideMenu';
import { MAIN_CONTENT_ID, SkipLink } from '@/components/SkipLink';

/** The panel `/Painel`: side menu by role, top bar with 'Voltar', and the screen. */
export function PanelLayout() {
  const brand = useBrand();
  const navigate = useNavigate();
  const session = readSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);

  async function onLogout() {
    setLoggingOut(true);
    await signOut();
  }

  return (
    <div className={menuOpen ? 'panel-layout is-menu-open' : 'panel-layout'}>
      <SkipLink />
      <SideMenu
        name={session.username ?? ''}
        roles={session.permissions}
        onLogout={() => void onLogout()}
        onNavigate={() => setMenuOpen(false)}
        loggingOut={loggingOut}
      />
      <div className="panel-main">
        <Navbar className="panel-navbar">
          <NavbarGroup align="start">
            <Button
              variant="minimal"
              className="menu-toggle"
              icon={<MenuIcon />}
              aria-label="Abrir menu"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen((v) => !v)}
            />
            <Button
              variant="minimal"
              icon={<ArrowLeftIcon />}
              text="Voltar"
              data-testid="back-button"
              onClick={() => navigate(-1)}
            />
          </NavbarGroup>
          <NavbarGroup align="end">
            <GlobalSearch />
            <NotificationBell />
            <NavbarHeading className="panel-brand-name">{brand.name}</NavbarHeading>
          </NavbarGroup>
        </Navbar>
        <main className="panel-content" id={MAIN_CONTENT_ID} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      {menuOpen && <div className="panel-backdrop" onClick={() => setMenuOpen(false)} aria-hidden="true" />}
    </div>
  );
}
