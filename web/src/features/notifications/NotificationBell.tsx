import { Button, Classes, Menu, MenuDivider, MenuItem, NonIdealState, PopoverNext, Tag } from '@blueprintjs/core';
import {
  BriefcaseIcon,
  DisableIcon,
  NotificationsIcon,
  RefreshIcon,
  ShopIcon,
  TickCircleIcon,
  TimeIcon,
} from '@blueprintjs/icons';
import { useEffect, useState, type MouseEvent, type ReactElement } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { formatDateTime } from '@/lib/format';
import {
  lastSeenNotification,
  newestId,
  safeLink,
  saveLastSeenNotification,
  type Notification,
} from './api/notifications';
import { readSession } from '@/lib/session';
import { useNotifications } from './api/useNotifications';
import './notifications.css';

/** The icon of a notice kind. */
export function kindIcon(kind: string): ReactElement {
  if (kind.startsWith('resale')) return <ShopIcon />;
  if (kind.includes('reminder') || kind.startsWith('expired') || kind === 'renewal-open') return <TimeIcon />;
  if (kind.includes('approved')) return <TickCircleIcon />;
  if (kind.includes('disapproved') || kind.includes('refused')) return <DisableIcon />;
  return <BriefcaseIcon />;
}

/** The badge's text: the unread count, '99+' beyond 99; '' when none. */
export function badgeText(unread: number): string {
  if (!Number.isFinite(unread) || unread <= 0) return '';
  return unread > 99 ? '99+' : String(Math.floor(unread));
}

/**
 * Whether a notice's link leads to the record the page shows: a record's page
 * (/Painel/Opportunities/<id>, /Painel/Resales/details?id=…, not a list such as
 * /Painel/Opportunities, where a welcome notice points), the same path and,
 * when the link names the record in its query (`?id=`), the same id.
 */
export function isRecordOf(link: string, pathname: string, search: string): boolean {
  const safe = safeLink(link);
  if (!safe) return false;
  const target = new URL(safe, 'http://portal.invalid');
  if (target.pathname.split('/').filter(Boolean).length < 3) return false;
  if (target.pathname.toLowerCase() !== pathname.toLowerCase()) return false;
  const id = target.searchParams.get('id');
  return id === null || new URLSearchParams(search).get('id') === id;
}

/**
 * The bell of the panel header: the unread count, and a dropdown of the user's
 * recent events (spec §2 "Shared modals"), each a link to its record. A notice
 * is read once opened (from the dropdown or by opening its record any other
 * way) or once its record is decided (the server marks it read for everyone
 * who got it); 'Marcar todas como lidas' marks them all. Unread notices are
 * tagged 'Nova'. The list is asked when the dropdown opens, every 30 seconds
 * while the page is visible, and when the window regains focus. The
 * notifications cookie (lib/notificationsApi.ts) remembers the newest notice
 * already seen here: the bell is highlighted while newer ones wait.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const userId = readSession().userid;
  const { items, unread, loaded, failed, refresh, markRead, markAllRead } = useNotifications(userId);
  const [open, setOpen] = useState(false);
  const [lastSeen, setLastSeen] = useState(() => lastSeenNotification(userId));

  // Opening asks the list once (Blueprint may report the opening twice: an
  // effect on the state, not the callback, so no request cancels another).
  useEffect(() => {
    if (open) refresh();
  }, [open, refresh]);

  // While open, what arrives counts as seen.
  useEffect(() => {
    if (!open) return;
    const newest = newestId(items);
    if (newest > lastSeenNotification(userId)) {
      saveLastSeenNotification(userId, newest);
      setLastSeen(newest);
    }
  }, [open, items, userId]);

  // The record on screen: its notices are read.
  useEffect(() => {
    for (const n of items) if (!n.readAt && isRecordOf(n.link, pathname, search)) markRead(n.id);
  }, [items, pathname, search, markRead]);

  function onPick(n: Notification, event: MouseEvent) {
    const link = safeLink(n.link);
    // A plain click stays in the app; with a modifier the browser opens the link (new tab, window).
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setOpen(false);
    if (!n.readAt) markRead(n.id);
    if (link) navigate(link);
  }

  const count = badgeText(unread);
  const hasNew = newestId(items) > lastSeen;
  const label = unread > 0 ? `Notificações: ${unread} não ${unread === 1 ? 'lida' : 'lidas'}` : 'Notificações';

  const content = (
    <div className="notifications-panel" data-testid="notifications-panel">
      <div className="notifications-header">
        <strong>Notificações</strong>
        <Button
          variant="minimal"
          size="small"
          text="Marcar todas como lidas"
          disabled={unread === 0}
          onClick={markAllRead}
          data-testid="notifications-read-all"
        />
      </div>
      <MenuDivider />
      {items.length === 0 ? (
        <NonIdealState
          className="notifications-empty"
          icon={failed ? <RefreshIcon size={32} /> : <NotificationsIcon size={32} />}
          description={
            failed && loaded ? 'Não foi possível carregar as notificações.' : loaded ? 'Nenhuma notificação' : 'Carregando…'
          }
        />
      ) : (
        <Menu className="notifications-list" aria-label="Notificações recentes">
          {items.map((n) => (
            <MenuItem
              key={n.id}
              icon={kindIcon(n.kind)}
              className={n.readAt ? 'notification-item' : 'notification-item is-unread'}
              multiline
              href={safeLink(n.link) ?? undefined}
              data-testid={`notification-${n.id}`}
              text={
                <span className="notification-text">
                  <span className="notification-title">{n.title}</span>
                  <span className={`notification-date ${Classes.TEXT_MUTED}`}>{formatDateTime(n.createdAt)}</span>
                </span>
              }
              labelElement={
                n.readAt ? undefined : (
                  <Tag minimal round intent="primary" className="notification-new">
                    Nova
                  </Tag>
                )
              }
              onClick={(e) => onPick(n, e)}
            />
          ))}
        </Menu>
      )}
    </div>
  );

  return (
    <PopoverNext
      content={content}
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-end"
      popoverClassName="notifications-popover"
      autoFocus
      enforceFocus={false}
    >
      <Button
        variant="minimal"
        className={hasNew ? 'notification-bell has-new' : 'notification-bell'}
        icon={<NotificationsIcon />}
        aria-label={label}
        aria-expanded={open}
        data-testid="notifications-bell"
      >
        {count && (
          <span className="notification-badge" data-testid="notifications-count" aria-hidden="true">
            {count}
          </span>
        )}
      </Button>
    </PopoverNext>
  );
}
