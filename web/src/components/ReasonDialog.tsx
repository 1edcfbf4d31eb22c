import { Button, DialogBody, DialogFooter, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { Dialog } from './Dialog';

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
}

/**
 * Refusal with a reason (spec §5 "Rejection / reason"): the prompt
 * 'Digite abaixo o motivo da reprovação'; the confirm button stays disabled
 * while the reason is empty (or only spaces). Used to refuse an opportunity, a
 * renewal and a reseller's sign-up.
 */
export function ReasonDialog({ isOpen, title, confirmText, loading = false, maxLength, onConfirm, onCancel }: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (isOpen) setReason('');
  }, [isOpen]);
  const enabled = canConfirmReason(reason);
  return (
    <Dialog isOpen={isOpen} onClose={loading ? undefined : onCancel} title={title} className="modal op-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (enabled && !loading) onConfirm(reason.trim());
        }}
      >
        <DialogBody>
          <FormGroup label={REASON_PROMPT} labelFor="refusal-reason">
            <TextArea
              id="refusal-reason"
              fill
              autoFocus
              rows={4}
              maxLength={maxLength}
              value={reason}
              disabled={loading}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-testid="refusal-reason"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button variant="outlined" text="Cancelar" onClick={onCancel} disabled={loading} />
              <Button
                type="submit"
                intent={Intent.DANGER}
                text={confirmText}
                disabled={!enabled}
                loading={loading}
                data-testid="refusal-confirm"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** Refusal (spec §5 "Rejection / reason"): the confirm button stays disabled while the reason is empty. */
export function canConfirmReason(reason: string): boolean {
  return reason.trim() !== '';
}
