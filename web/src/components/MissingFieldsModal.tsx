import { Button, Classes, DialogBody, DialogFooter, Intent } from '@blueprintjs/core';
import { Dialog } from './Dialog';
import { WarningSignIcon } from '@blueprintjs/icons';

export interface MissingFieldsModalProps {
  isOpen: boolean;
  /** Labels of the fields that are missing or invalid. */
  fields: readonly string[];
  onClose: () => void;
}

/** Shared missing-fields modal (spec §2): 'Campos obrigatórios ausentes!', the labels, 'Fechar'. */
export function MissingFieldsModal({ isOpen, fields, onClose }: MissingFieldsModalProps) {
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title="Campos obrigatórios ausentes!"
      icon={<WarningSignIcon className={Classes.INTENT_WARNING} />}
      className="modal modal-missing-fields"
    >
      <DialogBody>
        <ul aria-label="Campos obrigatórios ausentes" data-testid="missing-fields-list">
          {fields.map((label) => (
            <li key={label}>{label}</li>
          ))}
        </ul>
      </DialogBody>
      <DialogFooter actions={<Button intent={Intent.PRIMARY} text="Fechar" onClick={onClose} autoFocus />} />
    </Dialog>
  );
}
