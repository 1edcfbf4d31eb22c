import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useEffect, useState } from 'react';

export const REASON_PROMPT = 'Digite abaixo o motivo da reprovação';

export interface RejectResaleDialogProps {
  isOpen: boolean;
  loading?: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * Refusing a company (spec §5 "Rejection / reason"): the reason is required;
 * 'Reprovar' stays disabled while it is empty (or only spaces).
 */
export function RejectResaleDialog({ isOpen, loading = false, onConfirm, onCancel }: RejectResaleDialogProps) {
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (isOpen) setReason('');
  }, [isOpen]);
  const enabled = reason.trim() !== '';
  return (
    <Dialog isOpen={isOpen} onClose={loading ? undefined : onCancel} title="Reprovar revenda" className="modal">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (enabled && !loading) onConfirm(reason.trim());
        }}
      >
        <DialogBody>
          <FormGroup label={REASON_PROMPT} labelFor="resale-reason">
            <TextArea
              id="resale-reason"
              fill
              autoFocus
              rows={4}
              maxLength={2000}
              value={reason}
              disabled={loading}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-testid="resale-reason"
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
                text="Reprovar"
                disabled={!enabled}
                loading={loading}
                data-testid="resale-reason-confirm"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
