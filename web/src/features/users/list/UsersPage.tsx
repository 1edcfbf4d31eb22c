import { Button, Classes, FormGroup, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { EyeOpenIcon, HistoryIcon, PlusIcon, SearchIcon } from '@blueprintjs/icons';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CellText } from '@/components/CellText';
import { ListScreen, TableScroll } from '@/components/ListScreen';
import { VirtualRows } from '@/components/VirtualRows';
import { listProps, useListData } from '@/components/useListData';
import { PAGE_SIZES } from '@/components/PageSizeSelect';
import { formatPhone } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { ROLE_LABELS, isRole } from '@/lib/roles';
import { readSession } from '@/lib/session';
import { listSellers, sellerListSource, type SellerRow } from '../api/users';
import { loadSellerPreferences, saveSellerPreferences } from './preferences';
import '@/components/partners.css';

export const NO_PHONE = 'Sem Telefone';

export function userDetailsPath(id: string): string {
  return `${PANEL_BASE}/Users/${encodeURIComponent(id)}`;
}

export function userHistoryPath(id: string): string {
  return `${PANEL_BASE}/History/${encodeURIComponent(id)}?type=Users`;
}

/** A phone as the list shows it: formatted, or 'Sem Telefone'. */
export function phoneText(phone: string | null | undefined): string {
  return phone && phone.trim() !== '' ? formatPhone(phone) : NO_PHONE;
}

/**
 * Users `/Painel/Users` (spec §2 "Users", §6 "Seller list", §8): a reseller sees
 * its sellers and may add more; representative and support see the brand's
 * partner users.
 */
export function UsersPage() {
  const roles = readSession().permissions;
  const roleKey = roles.join(',');
  const source = useMemo(() => sellerListSource(roleKey ? roleKey.split(',') : []), [roleKey]);
  const canAdd = roles.includes('RESALE');
  const staffView = source.ok && source.kind === 'representative';

  const [initial] = useState(loadSellerPreferences);
  const [typed, setTyped] = useState(initial.name);
  const [name, setName] = useState(initial.name);
  const [amount, setAmount] = useState(initial.amount);
  const [page, setPage] = useState(1);

  useEffect(() => saveSellerPreferences({ name, amount }), [name, amount]);

  const queryKey = JSON.stringify({ amount, page, name });
  const list = useListData<SellerRow>(
    source.ok ? (signal) => listSellers(source.kind, JSON.parse(queryKey), signal) : null,
    `${source.ok ? source.kind : ''}|${queryKey}`,
    page,
    amount,
    setPage,
  );
  const { rows, state, error, setError, reload } = list;

  // Applied by Enter (the form's submit) or the magnifier (spec §2).
  function onSearch(event: FormEvent) {
    event.preventDefault();
    setName(typed.trim());
    setPage(1);
    if (typed.trim() === name) reload();
  }

  const loading = state === 'loading';
  const table = (
    <TableScroll label="Tabela de usuários" busy={loading}>
      <HTMLTable className="partners-table list-table users-table" data-testid="users-table">
        <thead>
          <tr>
            <th scope="col" className="col-actions">
              Ações
            </th>
            <th scope="col" className="col-history">
              Histórico
            </th>
            <th scope="col" className="col-name">
              Nome
            </th>
            <th scope="col" className="col-email">
              E-mail
            </th>
            <th scope="col" className="col-phone">
              Telefone
            </th>
          </tr>
        </thead>
        <VirtualRows
          rows={rows}
          columns={5}
          rowHeight={41}
          renderRow={(u, index) => (
            <tr key={u.id} data-testid={`user-row-${u.id}`} className={index % 2 === 1 ? 'is-odd' : undefined}>
              <td className="col-actions cell-actions">
                <Link
                  to={userDetailsPath(u.id)}
                  className="icon-link"
                  aria-label={`Detalhes de ${u.name}`}
                  title="Detalhes"
                  data-testid="user-details-link"
                >
                  <EyeOpenIcon />
                </Link>
              </td>
              <td className="col-history cell-actions">
                <Link
                  to={userHistoryPath(u.id)}
                  className="icon-link"
                  aria-label={`Histórico de ${u.name}`}
                  title="Histórico"
                  data-testid="user-history-link"
                >
                  <HistoryIcon />
                </Link>
              </td>
              <td className="col-name" data-label="Nome">
                <CellText text={u.name} testId="user-name-cell" className="cell-strong" />
                {staffView && (
                  <div className="cell-secondary">
                    {(u.roles ?? []).filter(isRole).map((r) => (
                      <Tag key={r} minimal round className="user-role-tag">
                        {ROLE_LABELS[r]}
                      </Tag>
                    ))}
                    {u.resale ? <span> {u.resale}</span> : null}
                  </div>
                )}
              </td>
              <td className="col-email" data-label="E-mail">
                <CellText text={u.email} />
              </td>
              <td className="col-phone cell-nowrap" data-label="Telefone">
                {phoneText(u.phone)}
              </td>
            </tr>
          )}
        />
      </HTMLTable>
    </TableScroll>
  );

  return (
    <ListScreen
      className="users-page"
      title="Usuários"
      headerClassName="partners-header"
      actions={
        canAdd && (
          <Link
            to={`${PANEL_BASE}/Users/registration`}
            className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
            role="button"
            data-testid="add-seller"
          >
            <PlusIcon />
            <span className={Classes.BUTTON_TEXT}>Adicionar vendedores</span>
          </Link>
        )
      }
      filtersClassName="partners-card"
      filters={
        <form className="name-filter" role="search" aria-label="Filtrar usuários" onSubmit={onSearch}>
          <FormGroup label="Nome do vendedor" labelFor="seller-name-filter">
            <InputGroup
              id="seller-name-filter"
              name="name"
              type="search"
              value={typed}
              maxLength={120}
              onValueChange={setTyped}
              data-testid="seller-name-filter"
              rightElement={
                <Button
                  type="submit"
                  variant="minimal"
                  icon={<SearchIcon />}
                  aria-label="Buscar pelo nome"
                  data-testid="seller-name-search"
                />
              }
            />
          </FormGroup>
        </form>
      }
      errorTitle="Não foi possível carregar os usuários"
      blocked={source.ok ? null : source.message}
      {...listProps(list, amount, setAmount, page, setPage)}
      noun={['usuário', 'usuários']}
      pageSizes={PAGE_SIZES}
      error={error}
      onErrorClose={() => setError(null)}
    >
      {table}
    </ListScreen>
  );
}
