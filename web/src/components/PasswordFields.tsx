import { Button, InputGroup, Intent } from '@blueprintjs/core';
import { EyeOffIcon, EyeOpenIcon } from '@blueprintjs/icons';
import { useState, type JSX } from 'react';
import { PASSWORD_MISMATCH_MESSAGE, PASSWORD_RULE_MESSAGE, isValidPassword, passwordError } from '@/lib/password';
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

/**
 * A new password and its confirmation as typed: `fields` for PasswordFields,
 * `valid` once both pass (passwordError).
 */
export function usePasswordPair() {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  return {
    password,
    confirmation,
    valid: passwordError(password, confirmation) === null,
    fields: { password, confirmation, onPasswordChange: setPassword, onConfirmationChange: setConfirmation },
  };
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
  /** One of the two fields, its message under it when it is wrong. */
  const field = (name: 'password' | 'confirmation', label: string, value: string, onChange: (value: string) => void, error?: string, rightElement?: JSX.Element) => (
    <FormField label={label} labelFor={name} intent={error ? Intent.DANGER : Intent.NONE} helperText={error}>
      <InputGroup
        id={name}
        name={name}
        type={visible ? 'text' : 'password'}
        autoComplete="new-password"
        value={value}
        disabled={disabled}
        intent={error ? Intent.DANGER : Intent.NONE}
        rightElement={rightElement}
        onValueChange={onChange}
      />
    </FormField>
  );
  return (
    <>
      {field('password', passwordLabel, password, onPasswordChange, ruleBroken ? PASSWORD_RULE_MESSAGE : undefined, toggle)}
      {field('confirmation', confirmationLabel, confirmation, onConfirmationChange, mismatch ? PASSWORD_MISMATCH_MESSAGE : undefined)}
    </>
  );
}
