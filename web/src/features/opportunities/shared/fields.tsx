import { Radio } from '@blueprintjs/core';
import { PROBABILITY_LABELS, PROBABILITY_VALUES } from '@/lib/status';
import type { Option } from './options';

/** The closing probabilities as a select's options (10% … 100%). */
export function ProbabilityOptions() {
  return PROBABILITY_VALUES.map((p) => (
    <option key={p} value={p}>
      {PROBABILITY_LABELS[p]}
    </option>
  ));
}

export interface RadioRowProps {
  /** The group's id and its radios' name; its label's id is '<name>-label'. */
  name: string;
  testId: string;
  options: readonly Option[];
  value: string;
  disabled: boolean;
  /** A radio is chosen. */
  onChoose: (value: string) => void;
  /** Set by a FormField around it (its error, its message, required). */
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}

/** A row of radios named by the label with id '<name>-label' (a FormField's label). */
export function RadioRow({ name, testId, options, value, disabled, onChoose, ...aria }: RadioRowProps) {
  return (
    <div className="op-radio-row" role="radiogroup" aria-labelledby={`${name}-label`} id={name} data-testid={testId} {...aria}>
      {options.map((o) => (
        <Radio
          key={o.value}
          name={name}
          value={o.value}
          label={o.label}
          checked={value === o.value}
          disabled={disabled}
          onChange={() => onChoose(o.value)}
        />
      ))}
    </div>
  );
}
