import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import type { Notification } from './api/notifications';
import { json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';
import { badgeText } from './NotificationBell';

function notice(id: number, over: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'approved',
    title: `Oportunidade aprovada: Projeto ${id}`,
    link: `/Painel/Opportunities/op-${id}`,
    createdAt: '2026-03-05T15:04:00Z',
    readAt: null,
    ...over,
  };
}

/** A fake notifications service: `state` can be changed between calls. */
function service(initial: Notification[]) {
  const state = { list: initial };
  const calls = mockFetch((c: Call) => {
    if (c.url.startsWith('/api/notifications?')) {
      return json(200, { result: state.list, unread: state.list.filter((n) => !n.readAt).length });
    }
    const one = /^\/api\/notifications\/(\d+)\/read$/.exec(c.url);
    if (one && c.method === 'PATCH') {
      state.list = state.list.map((n) => (n.id === Number(one[1]) ? { ...n, readAt: '2026-03-05T16:00:00Z' } : n));
      return json(200, {});
    }
    if (c.url === '/api/notifications/read-all' && c.method === 'PATCH') {
      state.list = state.list.map((n) => ({ ...n, readAt: n.readAt ?? '2026-03-05T16:00:00Z' }));
      return json(200, {});
    }
    return json(200, {});
  });
  return { state, calls };
}

const bell = () => screen.getByTestId('notifications-bell');
const listCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/notifications?'));

afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationBell', () => {
  it('badge text: the count, 99+ beyond, nothing at zero', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(3)).toBe('3');
    expect(badgeText(120)).toBe('99+');
  });

  it('shows the unread count; opening an event marks it read and opens its record', async () => {
    storeSession({ roles: ['SELLER'] });
    const { calls } = service([notice(3), notice(2, { kind: 'disapproved', title: 'Oportunidade reprovada: X' }), notice(1, { readAt: '2026-03-01T10:00:00Z' })]);
    renderAt('/Painel/Settings', <AppRoutes />);
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('2');
    expect(bell()).toHaveAccessibleName('Notificações: 2 não lidas');
    expect(listCalls(calls)[0].url).toBe('/api/notifications?limit=20');

    await userEvent.click(bell());
    const panel = await screen.findByTestId('notifications-panel');
    expect(within(panel).getByTestId('notification-3')).toHaveTextContent('Oportunidade aprovada: Projeto 3');
    expect(within(panel).getByTestId('notification-3')).toHaveTextContent('05/03/2026');
    expect(within(panel).getByTestId('notification-2')).toHaveTextContent('Oportunidade reprovada: X');
    await userEvent.click(within(panel).getByText('Oportunidade aprovada: Projeto 3'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/op-3'));
    expect(calls.some((c) => c.method === 'PATCH' && c.url === '/api/notifications/3/read')).toBe(true);
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('1');
  });

  it("'Marcar todas como lidas' clears the badge", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const { calls } = service([notice(5, { kind: 'resale-registered', title: 'Nova revenda aguardando análise: Alfa', link: '/Painel/Resales/details?id=r1' }), notice(4)]);
    renderAt('/Painel/Settings', <AppRoutes />);
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('2');
    await userEvent.click(bell());
    await userEvent.click(await screen.findByRole('button', { name: 'Marcar todas como lidas' }));
    await waitFor(() => expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'PATCH' && c.url === '/api/notifications/read-all')).toBe(true);
    expect(screen.getByRole('button', { name: 'Marcar todas como lidas' })).toBeDisabled();
  });

  it('asks again every 30 seconds and when the window regains focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    storeSession({ roles: ['SELLER'] });
    const { state, calls } = service([]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await waitFor(() => expect(listCalls(calls)).toHaveLength(1));
    expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument();
    state.list = [notice(7)];
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('1');
    const before = listCalls(calls).length;
    state.list = [notice(8), notice(7)];
    act(() => {
      fireEvent.focus(window);
    });
    await waitFor(() => expect(listCalls(calls).length).toBe(before + 1));
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('2');
  });

  it("highlights the bell while notices newer than the last look wait, and remembers the look in the notifications cookie", async () => {
    storeSession({ roles: ['SELLER'] });
    Cookies.set('notifications', 'u1:5', { path: '/' });
    service([notice(7), notice(6, { readAt: '2026-03-05T16:00:00Z' }), notice(5)]);
    const { unmount } = renderAt('/Painel/Settings', <AppRoutes />);
    await screen.findByTestId('notifications-count');
    expect(bell()).toHaveClass('has-new');
    await userEvent.click(bell());
    await screen.findByTestId('notifications-panel');
    await waitFor(() => expect(Cookies.get('notifications')).toBe('u1:7'));
    expect(bell()).not.toHaveClass('has-new');
    unmount();
    renderAt('/Painel/Settings', <AppRoutes />);
    await screen.findByTestId('notifications-count');
    expect(bell()).not.toHaveClass('has-new');
  });

  it("tags the unread notices 'Nova'; an opened one is no longer 'Nova' when the dropdown opens again", async () => {
    storeSession({ roles: ['SELLER'] });
    service([notice(7), notice(6, { readAt: '2026-03-05T16:00:00Z' }), notice(5)]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await userEvent.click(await screen.findByTestId('notifications-bell'));
    const panel = await screen.findByTestId('notifications-panel');
    await waitFor(() => expect(within(panel).getByTestId('notification-7')).toHaveTextContent('Nova'));
    expect(within(panel).getByTestId('notification-6')).not.toHaveTextContent('Nova');
    expect(within(panel).getByTestId('notification-5')).toHaveTextContent('Nova');
    await userEvent.click(within(panel).getByTestId('notification-7'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/op-7'));
    await userEvent.click(bell());
    const again = await screen.findByTestId('notifications-panel');
    await waitFor(() => expect(within(again).getByTestId('notification-7')).not.toHaveTextContent('Nova'));
    expect(within(again).getByTestId('notification-5')).toHaveTextContent('Nova');
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('1');
  });

  it('opening the dropdown asks the list once, cancelling nothing', async () => {
    storeSession({ roles: ['SELLER'] });
    const { calls } = service([notice(3)]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await screen.findByTestId('notifications-count');
    const before = listCalls(calls).length;
    await userEvent.click(bell());
    await screen.findByTestId('notifications-panel');
    await waitFor(() => expect(listCalls(calls).length).toBe(before + 1));
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(listCalls(calls).length).toBe(before + 1);
  });

  it('each notice is a link to its record, followed with the keyboard too', async () => {
    storeSession({ roles: ['SELLER'] });
    const { calls } = service([notice(4), notice(3)]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await userEvent.click(await screen.findByTestId('notifications-bell'));
    const item = await screen.findByTestId('notification-4');
    expect(item).toHaveAttribute('href', '/Painel/Opportunities/op-4');
    item.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/op-4'));
    expect(calls.some((c) => c.method === 'PATCH' && c.url === '/api/notifications/4/read')).toBe(true);
  });

  it('a notice is read once its record is opened any other way (from a list, a bookmark)', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const { calls } = service([
      notice(8, { kind: 'resale-registered', link: '/Painel/Resales/details?id=r1&status=analysis' }),
      notice(9, { kind: 'resale-registered', link: '/Painel/Resales/details?id=r2' }),
    ]);
    renderAt('/Painel/Resales/details?id=r1', <AppRoutes />);
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.url === '/api/notifications/8/read')).toBe(true));
    expect(calls.some((c) => c.url === '/api/notifications/9/read')).toBe(false);
    await waitFor(() => expect(screen.getByTestId('notifications-count')).toHaveTextContent('1'));
  });

  it('a notice pointing at a list (the welcome) stays unread on that list', async () => {
    storeSession({ roles: ['RESALE'] });
    const { calls } = service([notice(10, { kind: 'resale-approved', link: '/Painel/Opportunities' })]);
    renderAt('/Painel/Opportunities', <AppRoutes />);
    expect(await screen.findByTestId('notifications-count')).toHaveTextContent('1');
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('never follows a link out of the portal', async () => {
    storeSession({ roles: ['SELLER'] });
    service([notice(9, { link: 'https://evil.example/' })]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await userEvent.click(await screen.findByTestId('notifications-bell'));
    await userEvent.click(await screen.findByTestId('notification-9'));
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Settings');
  });

  it("shows 'Nenhuma notificação' when there is none", async () => {
    storeSession({ roles: ['SELLER'] });
    service([]);
    renderAt('/Painel/Settings', <AppRoutes />);
    await userEvent.click(bell());
    expect(await screen.findByTestId('notifications-panel')).toHaveTextContent('Nenhuma notificação');
  });
});
