import { QueryClientProvider } from '@tanstack/react-query';
import { SetPasswordPage } from '@/features/auth/pages/set-password-page';
import { queryClient } from '@/lib/query-client';

/** Its invitation queries bring TanStack Query's provider, which the entry does not (decision 0044). */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <SetPasswordPage />
    </QueryClientProvider>
  );
}
