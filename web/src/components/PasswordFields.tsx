import { Button, InputGroup, Intent } from '@blueprintjs/core';
import { EyeOffIcon, EyeOpenIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULE_MESSAGE, isValidPassword } from '@/lib/password';
import { FormField } from './FormField';

export interface PasswordFieldsProps {
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  passwordLabel?: string;
  confirmationLabel?: string;
  disabled?: boolean;
}

/** The eye button that shows or hides a password field. */
export function PasswordVisibilityToggle({ visible, onToggle }: { visible: boolean; onToggle: () => void }) {
  return (
    <Button
      variant="minimal"
      icon={visible ? <EyeOffIcon /> : <EyeOpenIcon />}
      aria-label={visible ? 'Ocultar senha' : 'Mostrar senha'}
      aria-pressed={visible}
      data-testid="toggle-password"
      onClick={onToggle}
    />
  );
}

/** A new password and its confirmation, with the spec §5 messages under each field. */
export function PasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  passwordLabel = 'Nova senha',
  confirmationLabel = 'Confirme a nova senha',
  disabled = false,
}: PasswordFieldsProps) {
  const [visible, setVisible] = useState(false);
  const ruleBroken = password !== '' && !isValidPassword(password);
  const mismatch = confirmation !== '' && confirmation !== password;
  const toggle = <PasswordVisibilityToggle visible={visible} onToggle={() => setVisible((v) => !v)} />;
  return (
    <>
      <FormField
        label={passwordLabel}
        labelFor="password"
        intent={ruleBroken ? Intent.DANGER : Intent.NONE}
        helperText={ruleBroken ? PASSWORD_RULE_MESSAGE : undefined}
      >
        <InputGroup
          id="password"
          name="password"
          type={visible ? 'text' : 'password'}
          autoComplete="new-password"
          value={password}
          disabled={disabled}
          intent={ruleBroken ? Intent.DANGER : Intent.NONE}
          rightElement={toggle}
          onValueChange={onPasswordChange}
        />
      </FormField>
      <FormField
        label={confirmationLabel}
        labelFor="confirmation"
        intent={mismatch ? Intent.DANGER : Intent.NONE}
        helperText={mismatch ? PASSWORD_MISMATCH_MESSAGE : undefined}
      >
        <InputGroup
          id="confirmation"
          name="confirmation"
          type={visible ? 'text' : 'password'}
          autoComplete="new-password"
          value={confirmation}
          disabled={disabled}
          intent={mismatch ? Intent.DANGER : Intent.NONE}
          onValueChange={onConfirmationChange}
        />
      </FormField>
    </>
  );
}
