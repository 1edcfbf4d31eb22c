import { Button, Classes, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { Dialog } from './Dialog';
import { TickCircleIcon } from '@blueprintjs/icons';

export interface SuccessModalProps {
  isOpen: boolean;
  message: string;
  onClose: () => void;
}

/** Shared success modal (spec §2): 'Feito!', the message, 'Voltar ao início'. */
export function SuccessModal({ isOpen, message, onClose }: SuccessModalProps) {
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title="Feito!"
      icon={<TickCircleIcon className={Classes.INTENT_SUCCESS} />}
      className="modal modal-success"
    >
      <DialogBody>
        <p role="status" data-testid="success-modal-message">
          {message}
        </p>
      </DialogBody>
      <DialogFooter
        actions={<Button intent={Intent.PRIMARY} text="Voltar ao início" onClick={onClose} autoFocus />}
      />
    </Dialog>
  );
}
