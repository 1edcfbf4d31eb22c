import { useMutation } from '@tanstack/react-query';
import { updatePassword } from '@/lib/authApi';

/** The signed-in user's new password (POST /auth/update_password, lib/authApi.ts) as a mutation. */
export function useUpdatePassword() {
  return useMutation({ mutationFn: (input: { password: string; confirmation: string }) => updatePassword(input) });
}
