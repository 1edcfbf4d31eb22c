import { Callout, Intent } from '@blueprintjs/core';
import { ReasonDialog } from '@/components/ReasonDialog';

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
export function ConflictOverrideDialog({ message, ...props }: ConflictOverrideDialogProps) {
  return (
    <ReasonDialog
      {...props}
      title="Conflito de registro"
      confirmText="Aprovar mesmo assim"
      confirmIntent={Intent.WARNING}
      maxLength={MAX_OVERRIDE_REASON}
      prompt={OVERRIDE_PROMPT}
      name="override"
      fieldClassName="op-override-reason"
    >
      <Callout intent={Intent.WARNING} data-testid="override-message">
        {message}
      </Callout>
    </ReasonDialog>
  );
}
