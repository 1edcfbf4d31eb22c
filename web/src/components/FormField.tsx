import { FormGroup, Intent, type FormGroupProps } from '@blueprintjs/core';
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

export interface FormFieldProps extends Omit<FormGroupProps, 'children'> {
  /** The field must be filled: marked '*' beside the label and `aria-required` on the control. */
  required?: boolean;
  /** The id of the described control when `labelFor` is not set (a radio group tied by aria-labelledby). */
  controlId?: string;
  /** One control (InputGroup, HTMLSelect, TextArea, MaskedInput, a radio group…). */
  children: ReactNode;
}

type A11yProps = {
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
};

/**
 * Blueprint's FormGroup that also tells assistive technology what the eye
 * sees: a field in error gets `aria-invalid`, its message (the helper text) is
 * tied to it by `aria-describedby`, and a required field is marked '*' and
 * `aria-required`. The helper text keeps its id even without an error (a hint).
 */
export function FormField({ required, controlId, labelInfo, helperText, intent, children, ...rest }: FormFieldProps) {
  const id = rest.labelFor ?? controlId;
  const invalid = intent === Intent.DANGER;
  const child = Children.only(children);
  // A control that already names its description (its own message element) keeps it.
  const own = isValidElement(child) ? (child.props as A11yProps)['aria-describedby'] : undefined;
  const helpId = helperText && id && !own ? `${id}-help` : undefined;
  const control = isValidElement(child)
    ? cloneElement(child as ReactElement<A11yProps>, {
        'aria-invalid': (child.props as A11yProps)['aria-invalid'] ?? (invalid || undefined),
        'aria-describedby': own ?? helpId,
        'aria-required': required || undefined,
      })
    : child;
  return (
    <FormGroup
      {...rest}
      intent={intent}
      labelInfo={labelInfo ?? (required ? <span title="Campo obrigatório">*</span> : undefined)}
      helperText={helperText && helpId ? <span id={helpId}>{helperText}</span> : helperText}
    >
      {control}
    </FormGroup>
  );
}
