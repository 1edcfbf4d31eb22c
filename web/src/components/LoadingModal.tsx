import { DialogBody, ProgressBar } from '@blueprintjs/core';
import { Dialog } from './Dialog';
import { useEffect, useId, useState } from 'react';

/** Texts of the loading modal: the first one from the spec, then after 10, 20 and 30 seconds. */
export const LOADING_MESSAGES = [
  'Aguarde, estamos reunindo suas informações',
  'Só mais um instante, estamos quase lá…',
  'Está demorando um pouco mais do que o normal, obrigado pela paciência.',
  'Ainda estamos trabalhando nisso. Por favor, não feche esta página.',
] as const;

/** Seconds after which each later text appears (spec §9). */
export const LOADING_STEPS_SECONDS = [10, 20, 30] as const;

export interface LoadingModalProps {
  isOpen: boolean;
}

/** Shared loading modal (spec §2): the text changes after 10, 20 and 30 seconds. */
export function LoadingModal({ isOpen }: LoadingModalProps) {
  const [step, setStep] = useState(0);
  const messageId = useId();

  useEffect(() => {
    if (!isOpen) return;
    setStep(0);
    const timers = LOADING_STEPS_SECONDS.map((seconds, i) => window.setTimeout(() => setStep(i + 1), seconds * 1000));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [isOpen]);

  return (
    <Dialog
      isOpen={isOpen}
      canEscapeKeyClose={false}
      canOutsideClickClose={false}
      className="modal modal-loading"
      aria-busy="true"
    >
      <DialogBody>
        <p id={messageId} role="status" aria-live="polite" data-testid="loading-modal-message">
          {LOADING_MESSAGES[step]}
        </p>
        {/* Named by the message (axe: aria-progressbar-name, WCAG 4.1.2). */}
        <ProgressBar intent="primary" aria-labelledby={messageId} />
      </DialogBody>
    </Dialog>
  );
}
