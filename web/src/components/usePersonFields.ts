import { useState } from 'react';
import { MOBILE_LENGTH, isPersonValid, personErrors, type PersonFields } from './personFields';

/**
 * The state of a PersonFieldsForm (the sign-up's step 1, a new seller): the
 * values, whether they are valid, and the form's props. A field shows its
 * message once left, or, for the phone, once typed to its end.
 */
export function usePersonFields() {
  const [values, setValues] = useState<PersonFields>({ name: '', email: '', phone: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof PersonFields, boolean>>>({});
  return {
    values,
    valid: isPersonValid(values),
    /** Shows every field's message (a submit with a field wrong). */
    touchAll: () => setTouched({ name: true, email: true, phone: true }),
    /** PersonFieldsForm's values, errors, touched, onChange and onBlur. */
    form: {
      values,
      errors: personErrors(values),
      touched,
      onChange(field: keyof PersonFields, value: string) {
        setValues((v) => ({ ...v, [field]: value }));
        if (field === 'phone' && value.length === MOBILE_LENGTH) setTouched((t) => ({ ...t, phone: true }));
      },
      onBlur: (field: keyof PersonFields) => setTouched((t) => ({ ...t, [field]: true })),
    },
  };
}
