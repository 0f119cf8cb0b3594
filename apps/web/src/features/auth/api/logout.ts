import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { clearSession } from '@/lib/session';

export async function logout(): Promise<void> {
  await api.post('/api/v1/iam/logout');
}

/** Log out: POST /iam/logout, then (whatever its answer) forget the session and open /login. */
export function useLogout() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    meta: { silentError: true },
    onSettled: async () => {
      clearSession({ rememberLocation: false });
      await navigate(paths.login.getHref(), { replace: true });
    },
  });
}
