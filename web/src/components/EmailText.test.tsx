import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './EmailText';

describe('EmailText', () => {
  it('breaks only after the @ and before each dot, keeping the text as typed', () => {
    const { container } = render(<EmailText value="compras@cliente0.com.br" />);
    const span = container.querySelector('.email-text')!;
    expect(span.textContent).toBe('compras@cliente0.com.br');
    expect(span.innerHTML).toBe('compras@<wbr>cliente0<wbr>.com<wbr>.br');
  });

  it('leaves a value without @ or dots alone', () => {
    const { container } = render(<EmailText value="N/C" />);
    expect(container.querySelector('.email-text')!.innerHTML).toBe('N/C');
  });
});
