import { Button, Classes, DialogBody, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { BriefcaseIcon, OfficeIcon, PersonIcon, SearchIcon } from '@blueprintjs/icons';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { formatCNPJ } from '@/lib/format';
import { PANEL_BASE, resaleDetailsPath } from '@/lib/guards';
import { resaleStatusIntent, resaleStatusLabel, statusClass, statusIntent, statusLabel } from '@/lib/status';
import { ROLE_LABELS, isRole } from '@/lib/roles';
import { SEARCH_MAX_CHARS, type SearchResult } from './api/search';
import { useSearch } from './api/useSearch';
import './search.css';

/** One result: what it is, how it reads, where it leads. */
export interface SearchOption {
  key: string;
  kind: 'opportunities' | 'resales' | 'users';
  title: string;
  meta: string;
  tag?: { text: string; intent: 'none' | 'primary' | 'success' | 'warning' | 'danger'; status: string };
  path: string;
}

const GROUPS: { kind: SearchOption['kind']; title: string; icon: ReactElement }[] = [
  { kind: 'opportunities', title: 'Oportunidades', icon: <BriefcaseIcon /> },
  { kind: 'resales', title: 'Revendas', icon: <OfficeIcon /> },
  { kind: 'users', title: 'Usuários', icon: <PersonIcon /> },
];

/** The answer as a flat list of options, in the groups' order. */
export function searchOptions(r: SearchResult): SearchOption[] {
  return [
    ...r.opportunities.map<SearchOption>((o) => ({
      key: `o-${o.id}`,
      kind: 'opportunities',
      title: o.name || o.fantasyName || 'Oportunidade',
      meta: [o.fantasyName || o.corporateName, formatCNPJ(o.cnpj)].filter(Boolean).join(' · '),
      tag: { text: statusLabel(o.status), intent: statusIntent(o.status), status: o.status },
      path: `${PANEL_BASE}/Opportunities/${encodeURIComponent(o.id)}`,
    })),
    ...r.resales.map<SearchOption>((s) => ({
      key: `r-${s.id}`,
      kind: 'resales',
      title: s.corporateName,
      meta: [s.fantasyName, formatCNPJ(s.cnpj)].filter(Boolean).join(' · '),
      tag: { text: resaleStatusLabel(s.status), intent: resaleStatusIntent(s.status), status: s.status },
      path: resaleDetailsPath(s),
    })),
    ...r.users.map<SearchOption>((u) => ({
      key: `u-${u.id}`,
      kind: 'users',
      title: u.name,
      meta: [u.email, (u.roles ?? []).filter(isRole).map((x) => ROLE_LABELS[x]).join(', '), u.resale].filter(Boolean).join(' · '),
      path: `${PANEL_BASE}/Users/${encodeURIComponent(u.id)}`,
    })),
  ];
}

/** 'Ctrl K', or '⌘ K' on a Mac. */
export function shortcutHint(platform: string = navigator.platform): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘ K' : 'Ctrl K';
}

/**
 * The panel's global search: 'Buscar' in the top bar, or Ctrl+K / ⌘+K
 * anywhere in the panel, opens a dialog that finds opportunities, companies
 * and users by name, CNPJ or e-mail within the user's role and brand (the
 * server decides: POST /api/search). The arrows move through the results,
 * Enter opens one, Esc closes.
 */
export function GlobalSearch() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const hint = shortcutHint();
  return (
    <>
      <Button
        variant="minimal"
        className="global-search-button"
        icon={<SearchIcon />}
        aria-keyshortcuts="Control+K Meta+K"
        title={`Buscar (${hint})`}
        data-testid="global-search-button"
        onClick={() => setOpen(true)}
      >
        <span className="global-search-label">Buscar</span>
        <kbd className="global-search-kbd" aria-hidden="true">
          {hint}
        </kbd>
      </Button>
      {open && <SearchDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function SearchDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [raw, setRaw] = useState('');
  const [active, setActive] = useState(0);
  const { text, pending, tooShort, response } = useSearch(raw);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useMemo(() => (response?.ok && response.data ? searchOptions(response.data) : []), [response]);
  const more = response?.ok ? response.data?.more : undefined;
  const failed = response && !response.ok && response.status !== 401;
  const current = Math.min(active, Math.max(options.length - 1, 0));
  const optionId = (i: number) => `${listId}-${i}`;

  function go(o: SearchOption | undefined) {
    if (!o) return;
    onClose();
    navigate(o.path);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (options.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      go(options[current]);
    }
  }

  // The active option stays in view as the arrows move it.
  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
  });

  let status: ReactElement | string | null = null;
  if (tooShort) status = 'Digite ao menos 2 caracteres: nome, CNPJ ou e-mail.';
  else if (failed) status = response?.status && response.status < 500 && response.message ? response.message : 'Não foi possível buscar agora. Tente novamente.';
  else if (!response && pending) status = <Spinner size={16} aria-label="Buscando" />;
  else if (response?.ok && options.length === 0 && !pending) status = `Nada encontrado para “${text}”.`;

  let index = -1;
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title="Buscar"
      icon={<SearchIcon />}
      className="search-dialog"
      aria-describedby={`${listId}-help`}
      // The input takes the focus (Blueprint would give it to the dialog).
      autoFocus={false}
      onOpened={() => inputRef.current?.focus()}
    >
      <DialogBody className="search-body">
        <InputGroup
          inputRef={inputRef}
          type="search"
          size="large"
          leftIcon={<SearchIcon />}
          rightElement={pending && response ? <Spinner size={16} aria-label="Buscando" /> : undefined}
          placeholder="Nome, CNPJ ou e-mail"
          aria-label="Buscar oportunidades, revendas e usuários"
          value={raw}
          maxLength={SEARCH_MAX_CHARS}
          onValueChange={(v) => {
            setRaw(v);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          role="combobox"
          aria-expanded={options.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={options.length > 0 ? optionId(current) : undefined}
          data-testid="global-search-input"
        />
        <p id={`${listId}-help`} className={`search-help ${Classes.TEXT_MUTED}`}>
          Busque por nome, CNPJ ou e-mail. ↑ ↓ escolhem, Enter abre, Esc fecha.
        </p>
        <div className="search-status" role="status" aria-live="polite" data-testid="global-search-status">
          {status}
        </div>
        <div id={listId} role="listbox" aria-label="Resultados da busca" className="search-results" data-testid="global-search-results">
          {GROUPS.map((g) => {
            const items = options.filter((o) => o.kind === g.kind);
            if (items.length === 0) return null;
            return (
              <div key={g.kind} role="group" aria-labelledby={`${listId}-${g.kind}`} className="search-group">
                <div id={`${listId}-${g.kind}`} className="search-group-title" role="presentation">
                  {g.icon}
                  <span>{g.title}</span>
                </div>
                {items.map((o) => {
                  index += 1;
                  const i = index;
                  return (
                    <div
                      key={o.key}
                      id={optionId(i)}
                      role="option"
                      aria-selected={i === current}
                      className={i === current ? 'search-option is-active' : 'search-option'}
                      data-testid="global-search-option"
                      data-kind={o.kind}
                      onMouseMove={() => i !== current && setActive(i)}
                      onClick={() => go(o)}
                    >
                      <span className="search-option-text">
                        <span className="search-option-title">{o.title}</span>
                        {o.meta && <span className="search-option-meta">{o.meta}</span>}
                      </span>
                      {o.tag && (
                        <Tag minimal intent={o.tag.intent} className={`search-option-tag ${statusClass(o.tag.status)}`}>
                          {o.tag.text}
                        </Tag>
                      )}
                    </div>
                  );
                })}
                {more?.[g.kind] && <p className="search-more">Há mais resultados: refine a busca.</p>}
              </div>
            );
          })}
        </div>
      </DialogBody>
    </Dialog>
  );
}
