import { InputGroup, Intent } from '@blueprintjs/core';
import { formatMoneyInput, parseMoney } from '@/lib/money';
import './money.css';

export interface MoneyInputProps {
  id: string;
  /** The text as typed (kept as typed until the field is left). */
  value: string;
  onValueChange: (text: string) => void;
  /** Called when the field is left, after a readable amount was rewritten as '1.234,56'. */
  onBlur?: () => void;
  /** The message shown under the field; marks the input invalid. */
  error?: string;
  /** The id of the element holding the message (aria-describedby). */
  describedBy?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * A money field (lib/money.ts): accepts what Brazilians type ('1.234,56',
 * '1234,56', '1234.56', '1 234,56'), keeps every character while typing (no
 * mask truncates it), and once left shows a readable amount as '1.234,56',
 * right-aligned. Text it cannot read stays as typed so its message can say why.
 */
export function MoneyInput({ id, value, onValueChange, onBlur, error, describedBy, disabled, ...rest }: MoneyInputProps) {
  return (
    <InputGroup
      id={id}
      className="money-input"
      inputMode="decimal"
      placeholder="0,00"
      autoComplete="off"
      value={value}
      disabled={disabled}
      intent={error ? Intent.DANGER : Intent.NONE}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      leftElement={<span className="money-prefix" aria-hidden="true">R$</span>}
      onValueChange={onValueChange}
      onBlur={() => {
        const r = parseMoney(value);
        if (r.ok && formatMoneyInput(r.cents) !== value) onValueChange(formatMoneyInput(r.cents));
        onBlur?.();
      }}
      aria-label={rest['aria-label']}
      data-testid={rest['data-testid']}
    />
  );
}
