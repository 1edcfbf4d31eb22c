import { Button, Callout, DialogBody, DialogFooter, FormGroup, Intent, TextArea } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/Dialog';

/** The longest override reason the server takes (workflows.MaxOverrideReason). */
export const MAX_OVERRIDE_REASON = 500;

export const OVERRIDE_PROMPT = 'Motivo para aprovar apesar do registro anterior';

export interface ConflictOverrideDialogProps {
  isOpen: boolean;
  /** The server's 409 message naming the earlier registration. */
  message: string;
  loading?: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * An approval an earlier registration of the same customer held back (409):
 * the server's message, and a reason to approve anyway, logged in both
 * registrations' histories (docs/deal-desk.md, "Conflicts").
 */
export function ConflictOverrideDialog({ isOpen, message, loading = false, onConfirm, onCancel }: ConflictOverrideDialogProps) {
  const [reason, setReason] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (isOpen) setReason('');
  }, [isOpen]);
  const enabled = reason.trim() !== '' && reason.trim().length <= MAX_OVERRIDE_REASON;
  return (
    <Dialog
      isOpen={isOpen}
      onClose={loading ? undefined : onCancel}
      // The approval's confirmation, closing as this opens, hands the focus back to the
      // page when its transition ends: the reason field takes it once this one has opened.
      onOpened={() => field.current?.focus()}
      title="Conflito de registro"
      className="modal op-dialog"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (enabled && !loading) onConfirm(reason.trim());
        }}
      >
        <DialogBody>
          <Callout intent={Intent.WARNING} data-testid="override-message">
            {message}
          </Callout>
          <FormGroup label={OVERRIDE_PROMPT} labelFor="override-reason" className="op-override-reason">
            <TextArea
              id="override-reason"
              fill
              autoFocus
              inputRef={field}
              rows={4}
              maxLength={MAX_OVERRIDE_REASON}
              value={reason}
              disabled={loading}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-testid="override-reason"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button variant="outlined" text="Cancelar" onClick={onCancel} disabled={loading} />
              <Button
                type="submit"
                intent={Intent.WARNING}
                text="Aprovar mesmo assim"
                disabled={!enabled}
                loading={loading}
                data-testid="override-confirm"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
