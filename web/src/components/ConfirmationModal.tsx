import { Button, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { Dialog } from './Dialog';
import type { ReactNode } from 'react';

export interface ConfirmationModalProps {
  isOpen: boolean;
  title: string;
  message: ReactNode;
  confirmText?: string;
  cancelText?: string;
  intent?: Intent;
  /** Shows a spinner on the confirm button while the action runs. */
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Shared confirmation modal (spec §2): title, message, confirm and cancel.
 * While `loading`, neither Esc, the backdrop nor 'Cancelar' closes it: the
 * action is on its way.
 */
export function ConfirmationModal({
  isOpen,
  title,
  message,
  confirmText = 'Confirmar',
  cancelText = 'Cancelar',
  intent = Intent.PRIMARY,
  loading = false,
  onConfirm,
  onCancel,
}: ConfirmationModalProps) {
  return (
    <Dialog isOpen={isOpen} onClose={loading ? undefined : onCancel} title={title} className="modal modal-confirmation">
      <DialogBody>
        <div data-testid="confirmation-modal-message">{message}</div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button variant="outlined" text={cancelText} onClick={onCancel} disabled={loading} />
            <Button intent={intent} text={confirmText} onClick={onConfirm} loading={loading} />
          </>
        }
      />
    </Dialog>
  );
}
