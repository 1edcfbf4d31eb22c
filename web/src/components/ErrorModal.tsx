import { Button, Classes, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { Dialog } from './Dialog';
import { ErrorIcon } from '@blueprintjs/icons';

export interface ErrorModalProps {
  isOpen: boolean;
  message: string;
  onClose: () => void;
}

/** Shared error modal (spec §2 "Shared modals"): 'Ops!', the message, 'Voltar'. */
export function ErrorModal({ isOpen, message, onClose }: ErrorModalProps) {
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title="Ops!"
      icon={<ErrorIcon className={Classes.INTENT_DANGER} />}
      className="modal modal-error"
    >
      <DialogBody>
        <p role="alert" data-testid="error-modal-message">
          {message}
        </p>
      </DialogBody>
      <DialogFooter
        actions={<Button intent={Intent.PRIMARY} text="Voltar" onClick={onClose} autoFocus />}
      />
    </Dialog>
  );
}
