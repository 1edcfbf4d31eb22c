import { Button, Card, H2, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { RefreshIcon, TrashIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmationModal } from '@/components/ConfirmationModal';
import { ErrorModal } from '@/components/ErrorModal';
import { SuccessModal } from '@/components/SuccessModal';
import { showToast } from '@/components/toaster';
import { getUser, type UserRecord } from '@/lib/authApi';
import { PANEL_BASE } from '@/lib/guards';
import { ROLE_LABELS, filterRolesForCompany, isRole } from '@/lib/roles';
import { getCompany } from '@/lib/http';
import { readSession } from '@/lib/session';
import {
  MSG_UNDO_FAILED,
  MSG_USER_DELETED,
  MSG_USER_ERROR,
  MSG_USER_RESTORED,
  UNDO_DELETE_MS,
  useDeactivateSeller,
  isDeactivated,
  restoreSeller,
} from '../api/users';
import { phoneText, userHistoryPath } from '../list/UsersPage';
import '@/components/partners.css';
import { DetailsGrid } from '@/components/DetailsGrid';
import { HistoryButtonLink, PageHeader } from '@/components/PageHeader';

/** `Users/:id`: 'Detalhes do usuário' for a representative, 'Detalhes do vendedor' otherwise (spec §2). */
export function userDetailsTitle(roles: readonly string[]): string {
  return roles.includes('REPRESENTATIVE') ? 'Detalhes do usuário' : 'Detalhes do vendedor';
}

type LoadState = 'loading' | 'ready' | 'error' | 'unauthorized';

/**
 * Seller or user details `/Painel/Users/:id` (spec §2, §8 "Seller/user detail"):
 * read-only; a reseller may delete (deactivate) one of its sellers.
 */
export function UserDetailsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = readSession();
  const viewerRoles = session.permissions;
  const title = userDetailsTitle(viewerRoles);

  const [user, setUser] = useState<UserRecord | null>(null);
  const [state, setState] = useState<LoadState>('loading');
  const [reloadKey, setReloadKey] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deactivate = useDeactivateSeller();
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    setState('loading');
    void getUser(id).then((res) => {
      if (!active) return;
      const data = res.ok ? res.data?.data : undefined;
      if (data && typeof data === 'object') {
        setUser(data);
        setState('ready');
      } else if (res.status === 401) {
        setState('unauthorized');
      } else {
        setState('error');
        setError(MSG_USER_ERROR);
      }
    });
    return () => {
      active = false;
    };
  }, [id, reloadKey]);

  const roles = user ? filterRolesForCompany(user.roles ?? [], getCompany()) : [];
  const inactive = isDeactivated(user);
  // A deactivated seller is already deleted: nothing to offer.
  const canDelete =
    viewerRoles.includes('RESALE') && !!user && !inactive && user.id !== session.userid && roles.includes('SELLER');
  const toUsers = () => navigate(`${PANEL_BASE}/Users`);

  async function onDelete() {
    setDeleting(true);
    const res = await deactivate.mutateAsync(id);
    setDeleting(false);
    setConfirming(false);
    if (res.ok) setSuccess(MSG_USER_DELETED);
    else if (res.status !== 401) setError(MSG_USER_ERROR);
  }

  /**
   * After 'Feito!', back on Users, a toast offers 'Desfazer' for a few seconds.
   * The deletion is already done (a closed tab leaves the seller deleted, as
   * asked); 'Desfazer' restores it (PATCH /seller/restore/{id}).
   */
  function afterDeleted() {
    toUsers();
    showToast({
      message: `Usuário excluído: ${user?.name ?? ''}.`,
      timeout: UNDO_DELETE_MS,
      action: {
        text: 'Desfazer',
        onClick: () => {
          void restoreSeller(id).then((res) => {
            void queryClient.invalidateQueries();
            if (res.ok) showToast({ message: MSG_USER_RESTORED, intent: 'success' });
            else if (res.status !== 401) showToast({ message: res.status < 500 && res.message ? res.message : MSG_UNDO_FAILED, intent: 'danger' });
          });
        },
      },
    });
  }

  let body;
  if (state === 'loading') {
    body = (
      <div className="list-loading" role="status">
        <Spinner size={32} />
      </div>
    );
  } else if (state === 'error') {
    body = (
      <NonIdealState
        title="Não foi possível carregar o usuário"
        description={MSG_USER_ERROR}
        action={<Button icon={<RefreshIcon />} text="Tentar novamente" onClick={() => setReloadKey((k) => k + 1)} />}
      />
    );
  } else if (user) {
    const rows = [
      { key: 'name', label: 'Nome', value: user.name },
      { key: 'email', label: 'E-mail', value: user.email },
      { key: 'phone', label: 'Telefone', value: phoneText(user.phone) },
    ];
    body = (
      <>
        <div className="partners-header">
          <H2 className="card-title">{user.name}</H2>
          {inactive && (
            <Tag intent={Intent.WARNING} minimal round data-testid="user-inactive">
              Inativo
            </Tag>
          )}
        </div>
        <DetailsGrid rows={rows} testIdPrefix="detail">
          <div>
            <dt>Perfil</dt>
            <dd data-testid="detail-roles">
              {roles.filter(isRole).map((r) => (
                <Tag key={r} minimal round className="user-role-tag">
                  {ROLE_LABELS[r]}
                </Tag>
              ))}
            </dd>
          </div>
        </DetailsGrid>
        {canDelete && (
          <div className="details-actions">
            <Button
              intent={Intent.DANGER}
              icon={<TrashIcon />}
              text="Excluir usuário"
              onClick={() => setConfirming(true)}
              data-testid="delete-user"
            />
          </div>
        )}
      </>
    );
  }

  return (
    <section className="panel-screen user-details-page" aria-labelledby="page-title">
      <PageHeader title={title} className="partners-header">
        {id && <HistoryButtonLink to={userHistoryPath(id)} testId="user-history" />}
      </PageHeader>
      <Card className="partners-card" elevation={1}>
        {body}
      </Card>
      <ConfirmationModal
        isOpen={confirming}
        title="Excluir usuário"
        message={
          <p>
            Deseja realmente excluir o usuário <strong>{user?.name}</strong>? Ele não poderá mais acessar o portal; o
            histórico e os registros dele são mantidos.
          </p>
        }
        confirmText="Excluir"
        intent={Intent.DANGER}
        loading={deleting}
        onConfirm={() => void onDelete()}
        onCancel={() => setConfirming(false)}
      />
      <SuccessModal isOpen={success !== null} message={success ?? ''} onClose={afterDeleted} />
      <ErrorModal isOpen={error !== null} message={error ?? ''} onClose={() => setError(null)} />
    </section>
  );
}
