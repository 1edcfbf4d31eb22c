import { Button, Menu, MenuItem } from '@blueprintjs/core';
import { CogIcon, DashboardIcon, BriefcaseIcon, ChartIcon, LogOutIcon, MapIcon, PeopleIcon, ShopIcon } from '@blueprintjs/icons';
import type { ReactElement } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LOGO_HEIGHT, LOGO_WIDTH, useBrand } from '@/lib/brand';
import { PANEL_BASE, menuFor } from '@/lib/guards';
import { UserBadge } from './UserBadge';

const ICONS: Record<string, ReactElement> = {
  Dashboard: <DashboardIcon />,
  Reports: <ChartIcon />,
  Opportunities: <BriefcaseIcon />,
  Resales: <ShopIcon />,
  Coverage: <MapIcon />,
  Users: <PeopleIcon />,
  Settings: <CogIcon />,
};

export interface SideMenuProps {
  name: string;
  roles: readonly string[];
  onLogout: () => void;
  onNavigate?: () => void;
  loggingOut?: boolean;
}

/** The panel's side menu: brand, connected user, entries by role (spec §6 "Menu"), 'Sair'. */
export function SideMenu({ name, roles, onLogout, onNavigate, loggingOut = false }: SideMenuProps) {
  const brand = useBrand();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <nav className="side-menu" aria-label="Menu principal">
      <div className="side-menu-brand">
        <img className="brand-logo side-menu-logo" src={brand.logo} alt={brand.name} width={LOGO_WIDTH} height={LOGO_HEIGHT} data-testid="brand-logo" />
      </div>
      <UserBadge name={name} roles={roles} />
      <Menu className="side-menu-entries">
        {menuFor(roles).map((entry) => {
          const to = `${PANEL_BASE}/${entry.route}`;
          const active = pathname.toLowerCase() === to.toLowerCase() || pathname.toLowerCase().startsWith(`${to.toLowerCase()}/`);
          return (
            <MenuItem
              key={entry.route}
              text={entry.label}
              icon={ICONS[entry.route]}
              href={to}
              active={active}
              aria-current={active ? 'page' : undefined}
              data-testid={`menu-${entry.route}`}
              onClick={(event) => {
                event.preventDefault();
                navigate(to);
                onNavigate?.();
              }}
            />
          );
        })}
      </Menu>
      <div className="side-menu-footer">
        <Button
          variant="minimal"
          icon={<LogOutIcon />}
          text="Sair"
          fill
          alignText="start"
          className="logout-button"
          data-testid="logout-button"
          loading={loggingOut}
          onClick={onLogout}
        />
      </div>
    </nav>
  );
}
