import { Button, Dialog as BlueprintDialog, type DialogProps, Classes, H2, Icon, IconSize } from '@blueprintjs/core';
import { SmallCrossIcon } from '@blueprintjs/icons';
import { useId } from 'react';

/** The header's close button, in the portal's language. */
export const CLOSE_LABEL = 'Fechar janela';

/**
 * Blueprint's Dialog with its header drawn here, so that the close button is
 * announced as 'Fechar janela' (Blueprint's own says "Close", in English, and takes no
 * label). Same props; the title still names the dialog for screen readers.
 */
export function Dialog({ title, icon, isCloseButtonShown, onClose, children, ...props }: DialogProps) {
  const titleId = useId();
  return (
    <BlueprintDialog {...props} onClose={onClose} aria-labelledby={props['aria-labelledby'] ?? (title != null ? titleId : undefined)}>
      {title != null && (
        <div className={Classes.DIALOG_HEADER}>
          <Icon icon={icon} size={IconSize.STANDARD} aria-hidden tabIndex={-1} />
          <H2 id={titleId}>{title}</H2>
          {isCloseButtonShown !== false && (
            <Button
              aria-label={CLOSE_LABEL}
              title={CLOSE_LABEL}
              className={Classes.DIALOG_CLOSE_BUTTON}
              icon={<SmallCrossIcon size={IconSize.STANDARD} />}
              onClick={onClose}
              variant="minimal"
            />
          )}
        </div>
      )}
      {children}
    </BlueprintDialog>
  );
}
