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
import { useEffect, useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../lib/format';
import {
  lastSeenNotification,
  newestId,
  safeLink,
  saveLastSeenNotification,
  type Notification,
} from '../../lib/notificationsApi';
import { readSession } from '../../lib/session';
import { useNotifications } from './useNotifications';
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
 * The bell of the panel header: the unread count, and a dropdown of the user's
 * recent events (spec §2 "Shared modals"), each opening its record. Opening an
 * event marks it read; 'Marcar todas como lidas' marks them all. The list is
 * asked again every 30 seconds while the page is visible, and when the window
 * regains focus. The notifications cookie (lib/notificationsApi.ts) remembers the
 * newest event already seen here, so events that arrived since are tagged 'Nova'.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const userId = readSession().userid;
  const { items, unread, loaded, failed, refresh, markRead, markAllRead } = useNotifications(userId);
  const [open, setOpen] = useState(false);
  const [lastSeen, setLastSeen] = useState(() => lastSeenNotification(userId));
  /** lastSeen when the dropdown opened: what is newer shows 'Nova' while it stays open. */
  const [seenAtOpen, setSeenAtOpen] = useState(0);

  // While open, what arrives counts as seen.
  useEffect(() => {
    if (!open) return;
    const newest = newestId(items);
    if (newest > lastSeenNotification(userId)) {
      saveLastSeenNotification(userId, newest);
      setLastSeen(newest);
    }
  }, [open, items, userId]);

  function onToggle(next: boolean) {
    if (next) {
      setSeenAtOpen(lastSeenNotification(userId));
      refresh();
    }
    setOpen(next);
  }

  function onPick(n: Notification) {
    const link = safeLink(n.link);
    setOpen(false);
    if (!n.readAt) markRead(n.id);
    if (link) navigate(link);
  }

  function onReadAll() {
    markAllRead();
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
          onClick={onReadAll}
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
          {items.map((n) => {
            const isNew = n.id > seenAtOpen;
            return (
              <MenuItem
                key={n.id}
                icon={kindIcon(n.kind)}
                className={n.readAt ? 'notification-item' : 'notification-item is-unread'}
                multiline
                data-testid={`notification-${n.id}`}
                text={
                  <span className="notification-text">
                    <span className="notification-title">{n.title}</span>
                    <span className={`notification-date ${Classes.TEXT_MUTED}`}>
                      {formatDateTime(n.createdAt)}
                      {!n.readAt && <span className="notification-unread-dot" aria-label="não lida" role="img" />}
                    </span>
                  </span>
                }
                labelElement={
                  isNew ? (
                    <Tag minimal round intent="primary">
                      Nova
                    </Tag>
                  ) : undefined
                }
                onClick={() => onPick(n)}
              />
            );
          })}
        </Menu>
      )}
    </div>
  );

  return (
    <PopoverNext
      content={content}
      isOpen={open}
      onInteraction={onToggle}
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
