import { Classes, Intent } from '@blueprintjs/core';
import type { FactoryOpts } from 'imask';
import { useCallback, useEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { useIMask } from 'react-imask';

export interface MaskedInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'defaultValue'> {
  /** One of the constants of lib/masks.ts (a stable object). */
  mask: FactoryOpts;
  /** The masked value. */
  value: string;
  onValueChange: (masked: string) => void;
  intent?: Intent;
  rightElement?: ReactNode;
}

/**
 * A Blueprint-styled text input masked with react-imask. Controlled: `value`
 * is the masked text, `onValueChange` receives the masked text as typed.
 */
export function MaskedInput({
  mask,
  value,
  onValueChange,
  intent = Intent.NONE,
  rightElement,
  className,
  readOnly,
  disabled,
  ...inputProps
}: MaskedInputProps) {
  const changeRef = useRef(onValueChange);
  useEffect(() => {
    changeRef.current = onValueChange;
  });
  const onAccept = useCallback((masked: string) => changeRef.current(masked), []);
  const { ref, value: current, setValue } = useIMask<HTMLInputElement, FactoryOpts>(mask, {
    onAccept,
    defaultValue: value,
  });
  // Only an outside change of `value` is pushed into the mask: the effect below
  // reads the mask's latest state through this ref and runs when `value` changes.
  const maskState = useRef({ current, setValue });
  useEffect(() => {
    maskState.current = { current, setValue };
  });
  useEffect(() => {
    if (value !== maskState.current.current) maskState.current.setValue(value);
  }, [value]);

  const groupClass = [
    Classes.INPUT_GROUP,
    intent !== Intent.NONE ? Classes.intentClass(intent) : '',
    disabled ? Classes.DISABLED : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={groupClass}>
      <input
        ref={ref}
        type="text"
        className={Classes.INPUT}
        readOnly={readOnly}
        disabled={disabled}
        {...inputProps}
      />
      {rightElement && <span className={Classes.INPUT_ACTION}>{rightElement}</span>}
    </div>
  );
}
