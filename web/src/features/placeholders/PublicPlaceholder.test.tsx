import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../App';
import { json, mockFetch, renderAt } from '../../test/helpers';

describe('public placeholders', () => {
  it.each([
    ['/Registration', 'Cadastre sua revenda'],
    ['/Contact', 'Contato'],
  ])('%s shows its title, a note and a link back to login', (path, title) => {
    mockFetch(() => json(200, {}));
    renderAt(path, <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent(title);
    expect(screen.getByText('Esta página está em construção.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar ao login' })).toHaveAttribute('href', '/');
  });
});
