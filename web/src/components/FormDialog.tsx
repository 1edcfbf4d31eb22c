import { Button, DialogBody, DialogFooter, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

export interface FormDialogProps {
  isOpen: boolean;
  title: string;
  /** While sending: the dialog does not close and its buttons wait. */
  loading: boolean;
  /** The form is sent (its default prevented). */
  onSubmit: () => void;
  onCancel: () => void;
  /** The dialog has opened (its transition ended). */
  onOpened?: () => void;
  /** The form's name for assistive technology. */
  formLabel?: string;
  /** The form's fields are judged here, not by the browser. */
  noValidate?: boolean;
  confirmText: string;
  confirmIntent: Intent;
  confirmDisabled?: boolean;
  confirmTestId: string;
  /** The form's body. */
  children: ReactNode;
}

/**
 * A dialog that is one form: its body, then 'Cancelar' and the submit button.
 * Used to refuse with a reason, to approve over a conflict and to ask a renewal.
 */
export function FormDialog(props: FormDialogProps) {
  const { isOpen, title, loading, onSubmit, onCancel, onOpened, formLabel, noValidate, children } = props;
  return (
    <Dialog isOpen={isOpen} onClose={loading ? undefined : onCancel} onOpened={onOpened} title={title} className="modal op-dialog">
      <form
        noValidate={noValidate}
        aria-label={formLabel}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <DialogBody>{children}</DialogBody>
        <DialogFooter
          actions={
            <>
              <Button variant="outlined" text="Cancelar" onClick={onCancel} disabled={loading} />
              <Button
                type="submit"
                intent={props.confirmIntent}
                text={props.confirmText}
                disabled={props.confirmDisabled}
                loading={loading}
                data-testid={props.confirmTestId}
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
