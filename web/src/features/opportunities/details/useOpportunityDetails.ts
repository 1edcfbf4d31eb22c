import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { HttpResponse } from '@/lib/http';
import {
  MSG_APPROVED,
  MSG_GENERIC,
  MSG_REFUSED,
  MSG_RENEWAL_APPROVED,
  MSG_RENEWAL_REFUSED,
  MSG_RENEWAL_REQUESTED,
  MSG_UPDATED,
  approveFailureMessage,
  isRegistrationConflict,
  refuseFailureMessage,
  renewalDecisionFailureMessage,
  renewalRequestFailureMessage,
  updateFailureMessage,
} from '../api/opportunity';
import { useDecision, type Decision } from '../api/useDecision';
import { approvalNameError } from '../model/renewal';
import { type RenewalPayload } from '../model/payload';
import { readSession } from '@/lib/session';
import { DEFAULT_PROBABILITY, isProbability } from '@/lib/status';
import { useModalMessage } from '../shared/useModalMessage';
import { useOpportunity } from '../api/useOpportunity';

/** Statuses in which a representative may edit the name and the probability (docs/opportunity-lifecycle.md). */
const EDITABLE = ['analysis', 'approved', 'renovation', 'awaiting_renovation'];

/** Label of the reason by status (spec §2): null when no reason is shown. */
export function reasonLabel(status: string): string | null {
  if (status === 'disapproved') return 'Motivo da reprovação';
  if (status === 'awaiting_renovation') return 'Motivo da solicitação de renovação';
  return null;
}

/** What the signed-in roles may do with an opportunity in a status (spec §4, §6). */
export function allowedActions(roles: readonly string[], status: string) {
  const rep = roles.includes('REPRESENTATIVE');
  const owner = roles.includes('RESALE') || roles.includes('SELLER');
  return {
    edit: rep && EDITABLE.includes(status),
    decide: rep && status === 'analysis',
    decideRenewal: rep && status === 'awaiting_renovation',
    requestRenewal: owner && (status === 'renovation' || status === 'expired'),
  };
}

/**
 * The probability the select shows for a stored value: one of the four bands, or
 * the default (25) for anything else (the list shows such a value as 'N/C').
 */
export function shownProbability(stored: number | null | undefined): number {
  return isProbability(stored) ? stored : DEFAULT_PROBABILITY;
}

export type DialogKind = 'approve' | 'override' | 'refuse' | 'renewal' | 'approveRenewal' | 'refuseRenewal' | null;

/**
 * Everything the details screen does, apart from drawing it: the record (a
 * TanStack query), the representative's name and probability, the dialogs, and
 * the decisions with their spec §8 messages.
 */
export function useOpportunityDetails(id: string) {
  const [params] = useSearchParams();
  const roles = useMemo(() => readSession().permissions, []);
  const isRep = roles.includes('REPRESENTATIVE');
  const { record, response, loading, reload } = useOpportunity(id);

  const [name, setNameValue] = useState('');
  const [probability, setProbability] = useState<number>(DEFAULT_PROBABILITY);
  const [nameError, setNameError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogKind>(null);
  const decision = useDecision(id);
  const success = useModalMessage();
  const failure = useModalMessage();
  const renewalOpened = useRef(false);
  const nameRef = useRef<HTMLInputElement>(null);

  // The editable values follow the record as loaded (again after a decision), unless the user changed them.
  const shownFrom = useRef<{ name: string; probability: number } | null>(null);
  useEffect(() => {
    if (!record) return;
    const next = { name: record.name, probability: shownProbability(record.probabilityClosing) };
    const prev = shownFrom.current;
    if (!prev || (name === prev.name && probability === prev.probability)) {
      setNameValue(next.name);
      setProbability(next.probability);
    }
    shownFrom.current = next;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new record resets the fields
  }, [record]);

  // Spec §8: the server's message for a 4xx, else 'Houve um erro. Tente novamente mais tarde!'.
  const loadError =
    response && !response.record && response.status !== 401
      ? response.status < 500 && response.message
        ? response.message
        : MSG_GENERIC
      : null;

  const status = record?.status ?? '';
  const can = allowedActions(roles, status);

  // ?renovation=true opens the renewal dialog on load (when the user may ask for it).
  useEffect(() => {
    if (!record || renewalOpened.current) return;
    renewalOpened.current = true;
    if (params.get('renovation') === 'true' && can.requestRenewal) setDialog('renewal');
  }, [record, params, can.requestRenewal]);

  // The 409 of an approval an earlier registration of the same customer holds back (ConflictOverrideDialog).
  const [conflictMessage, setConflictMessage] = useState('');

  /**
   * Sends a decision; success → the success modal (the cache already holds the
   * record the server answered: useDecision), failure → its message (a 401
   * already left the screen).
   */
  async function run(d: Decision, ok: string, failureOf: (res: HttpResponse<unknown>) => string | null) {
    const res = await decision.mutateAsync(d);
    if (d.kind === 'approve' && isRegistrationConflict(res)) {
      setConflictMessage(res.message ?? '');
      setDialog('override'); // the representative may approve anyway, with a reason
      return;
    }
    setDialog(null);
    if (res.ok) success.show(ok);
    else if (res.status !== 401) failure.show(failureOf(res) ?? MSG_GENERIC);
  }

  /** The name must be filled before approving or updating; else its message and the focus. */
  function nameOk(): boolean {
    const err = approvalNameError(name);
    setNameError(err);
    if (err) nameRef.current?.focus();
    return !err;
  }

  const changed =
    !!record && (name.trim() !== record.name || probability !== shownProbability(record.probabilityClosing));

  return {
    record,
    loading,
    loadError,
    status,
    can,
    isRep,
    name,
    setName(v: string) {
      setNameValue(v);
      if (nameError && v.trim()) setNameError(null);
    },
    nameError,
    nameRef,
    probability,
    setProbability,
    changed,
    busy: decision.isPending,
    dialog,
    setDialog,
    success,
    failure,
    conflictMessage,
    closeFailure() {
      failure.close();
      void reload(); // the status may have moved meanwhile
    },
    onApproveClick() {
      if (nameOk()) setDialog('approve');
    },
    onUpdateClick() {
      if (!record || !nameOk()) return;
      const nameChanged = name.trim() !== record.name;
      void run({ kind: 'update', name, probability, nameChanged }, MSG_UPDATED, updateFailureMessage);
    },
    approve() {
      if (record) void run({ kind: 'approve', name, probability }, MSG_APPROVED, approveFailureMessage);
    },
    approveOverriding(overrideReason: string) {
      if (record) void run({ kind: 'approve', name, probability, overrideReason }, MSG_APPROVED, approveFailureMessage);
    },
    refuse(reason: string) {
      if (record) void run({ kind: 'refuse', reason }, MSG_REFUSED, refuseFailureMessage);
    },
    askRenewal(payload: RenewalPayload) {
      if (record) void run({ kind: 'requestRenewal', payload }, MSG_RENEWAL_REQUESTED, renewalRequestFailureMessage);
    },
    decideRenewal(approve: boolean, reason?: string) {
      if (!record) return;
      void run(
        { kind: 'decideRenewal', approve, reason, name: record.name, probability: record.probabilityClosing },
        approve ? MSG_RENEWAL_APPROVED : MSG_RENEWAL_REFUSED,
        renewalDecisionFailureMessage,
      );
    },
  };
}
