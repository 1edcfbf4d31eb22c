import { FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormDialog } from './FormDialog';

export const REASON_PROMPT = 'Digite abaixo o motivo da reprovação';

export interface ReasonDialogProps {
  isOpen: boolean;
  title: string;
  confirmText: string;
  loading?: boolean;
  /** The longest reason the server takes, when it sets one (a reseller's refusal: 2000). */
  maxLength?: number;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  /** The field's label; a refusal's prompt unless told. */
  prompt?: string;
  /** Names the field ('<name>-reason', its id and test id) and the confirm button ('<name>-confirm'). */
  name?: string;
  /** The field's FormGroup class. */
  fieldClassName?: string;
  confirmIntent?: Intent;
  /** What stands above the field (e.g. the server's message). */
  children?: ReactNode;
}

/**
 * Refusal with a reason (spec §5 "Rejection / reason"): the prompt
 * 'Digite abaixo o motivo da reprovação'; the confirm button stays disabled
 * while the reason is empty (or only spaces). Used to refuse an opportunity, a
 * renewal and a reseller's sign-up, and (with its own prompt) to approve over a
 * conflict.
 */
export function ReasonDialog(props: ReasonDialogProps) {
  const { isOpen, loading = false, maxLength, onConfirm, prompt = REASON_PROMPT, name = 'refusal' } = props;
  const fieldId = `${name}-reason`;
  const [reason, setReason] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (isOpen) setReason('');
  }, [isOpen]);
  const enabled = canConfirmReason(reason) && (maxLength === undefined || reason.trim().length <= maxLength);
  return (
    <FormDialog
      isOpen={isOpen}
      title={props.title}
      loading={loading}
      onCancel={props.onCancel}
      // A confirmation closing as this opens hands the focus back to the page when its
      // transition ends: the reason field takes it once this one has opened.
      onOpened={() => field.current?.focus()}
      onSubmit={() => {
        if (enabled && !loading) onConfirm(reason.trim());
      }}
      confirmText={props.confirmText}
      confirmIntent={props.confirmIntent ?? Intent.DANGER}
      confirmDisabled={!enabled}
      confirmTestId={`${name}-confirm`}
    >
      {props.children}
      <FormGroup label={prompt} labelFor={fieldId} className={props.fieldClassName}>
        <TextArea
          id={fieldId}
          fill
          autoFocus
          inputRef={field}
          rows={4}
          maxLength={maxLength}
          value={reason}
          disabled={loading}
          onChange={(e) => setReason(e.currentTarget.value)}
          data-testid={fieldId}
        />
      </FormGroup>
    </FormDialog>
  );
}

/** Refusal (spec §5 "Rejection / reason"): the confirm button stays disabled while the reason is empty. */
export function canConfirmReason(reason: string): boolean {
  return reason.trim() !== '';
}
