import { InputGroup, Intent } from '@blueprintjs/core';
import type { FactoryOpts } from 'imask';
import { MaskedInput } from './MaskedInput';
import { MOBILE_LENGTH, type PersonErrors, type PersonFields } from './personFields';
import { FormField } from './FormField';

/** The mobile phone's mask as react-imask options (one object, kept between renders). */
export const MOBILE_MASK_OPTS: FactoryOpts = { mask: '(00) 00000-0000' };

export interface PersonFieldsFormProps {
  values: PersonFields;
  errors: PersonErrors;
  /** Fields whose message may show (left once, or filled to the end). */
  touched: Partial<Record<keyof PersonFields, boolean>>;
  onChange: (field: keyof PersonFields, value: string) => void;
  onBlur: (field: keyof PersonFields) => void;
  labels: Record<keyof PersonFields, string>;
  /** Prefix of the inputs' ids (two forms never share a page, but tests like stable ids). */
  idPrefix: string;
  disabled?: boolean;
}

/**
 * Name, e-mail and mobile phone with the messages of spec §5 under each field
 * (shared by the sign-up's step 1 and the seller registration).
 */
export function PersonFieldsForm({
  values,
  errors,
  touched,
  onChange,
  onBlur,
  labels,
  idPrefix,
  disabled = false,
}: PersonFieldsFormProps) {
  const shown = (field: keyof PersonFields) => (touched[field] ? errors[field] : undefined);
  const intent = (field: keyof PersonFields) => (shown(field) ? Intent.DANGER : Intent.NONE);
  const helper = (field: keyof PersonFields) => {
    const message = shown(field);
    return message ? (
      <span id={`${idPrefix}-${field}-error`} data-testid={`${idPrefix}-${field}-error`}>
        {message}
      </span>
    ) : undefined;
  };
  const described = (field: keyof PersonFields) => (shown(field) ? `${idPrefix}-${field}-error` : undefined);
  return (
    <>
      <FormField label={labels.name} labelFor={`${idPrefix}-name`} required intent={intent('name')} helperText={helper('name')}>
        <InputGroup
          id={`${idPrefix}-name`}
          name="name"
          autoComplete="name"
          value={values.name}
          disabled={disabled}
          intent={intent('name')}
          aria-invalid={!!shown('name')}
          aria-describedby={described('name')}
          onValueChange={(v) => onChange('name', v)}
          onBlur={() => onBlur('name')}
          maxLength={120}
        />
      </FormField>
      <FormField
        label={labels.email}
        labelFor={`${idPrefix}-email`}
        required
        intent={intent('email')}
        helperText={helper('email')}
      >
        <InputGroup
          id={`${idPrefix}-email`}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={values.email}
          disabled={disabled}
          intent={intent('email')}
          aria-invalid={!!shown('email')}
          aria-describedby={described('email')}
          onValueChange={(v) => onChange('email', v)}
          onBlur={() => onBlur('email')}
          maxLength={254}
        />
      </FormField>
      <FormField
        label={labels.phone}
        labelFor={`${idPrefix}-phone`}
        required
        intent={intent('phone')}
        helperText={helper('phone')}
      >
        <MaskedInput
          id={`${idPrefix}-phone`}
          name="phone"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder="(00) 00000-0000"
          mask={MOBILE_MASK_OPTS}
          maxLength={MOBILE_LENGTH}
          value={values.phone}
          disabled={disabled}
          intent={intent('phone')}
          aria-invalid={!!shown('phone')}
          aria-describedby={described('phone')}
          onValueChange={(v) => onChange('phone', v)}
          onBlur={() => onBlur('phone')}
        />
      </FormField>
    </>
  );
}
