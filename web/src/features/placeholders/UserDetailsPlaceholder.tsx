import { readSession } from '../../lib/session';
import { ScreenPlaceholder } from './ScreenPlaceholder';

/** `Users/:id`: 'Detalhes do usuário' for a representative, 'Detalhes do vendedor' otherwise (spec §2). */
export function userDetailsTitle(roles: readonly string[]): string {
  return roles.includes('REPRESENTATIVE') ? 'Detalhes do usuário' : 'Detalhes do vendedor';
}

export function UserDetailsPlaceholder() {
  return <ScreenPlaceholder title={userDetailsTitle(readSession().permissions)} />;
}
