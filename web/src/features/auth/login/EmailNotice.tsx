import { Button, Callout, Intent } from '@blueprintjs/core';
import { EnvelopeIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { dismissWarning, isWarningDismissed } from '@/lib/session';

/** One-time notice about e-mail delivery (spec §2); a dismissal is remembered 30 days. */
export function EmailNotice() {
  const [visible, setVisible] = useState(() => !isWarningDismissed());
  if (!visible) return null;
  return (
    // Its title is the page's h2 (after the h1 'Acesse o portal'), not the Callout's h5.
    <Callout intent={Intent.WARNING} icon={<EnvelopeIcon />} className="email-notice" data-testid="email-notice">
      <h2 className="bp6-heading email-notice-title">Atenção aos nossos e-mails</h2>
      <p>
        Os e-mails do portal podem chegar na sua caixa de spam ou lixo eletrônico. Se não receber nossas mensagens,
        verifique essas pastas e fale com a equipe de TI da sua empresa para liberar o nosso endereço.
      </p>
      <Button
        variant="outlined"
        size="small"
        text="Entendi"
        onClick={() => {
          dismissWarning();
          setVisible(false);
        }}
      />
    </Callout>
  );
}
