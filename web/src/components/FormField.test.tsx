import { InputGroup, Intent } from '@blueprintjs/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormField } from './FormField';

describe('FormField', () => {
  it('marks a field in error aria-invalid and describes it by its message', () => {
    render(
      <FormField label="Nome" labelFor="nome" required intent={Intent.DANGER} helperText="*Campo Obrigatório">
        <InputGroup id="nome" />
      </FormField>,
    );
    const input = screen.getByLabelText(/^Nome/);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('*Campo Obrigatório');
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('*')).toBeInTheDocument();
  });

  it('leaves a valid optional field alone', () => {
    render(
      <FormField label="Apelido" labelFor="apelido">
        <InputGroup id="apelido" />
      </FormField>,
    );
    const input = screen.getByLabelText('Apelido');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
    expect(input).not.toHaveAttribute('aria-required');
  });
});
