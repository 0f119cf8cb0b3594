import { QueryClientProvider } from '@tanstack/react-query';
import { SetPasswordPage } from '@/features/auth/pages/set-password-page';
import { installClassMerge } from '@/lib/class-merge';
import { queryClient } from '@/lib/query-client';

// Its form is drawn with the merge of overriding classes, as the signed-in screens (decision 0049).
installClassMerge();

/** Its invitation queries bring TanStack Query's provider, which the entry does not (decision 0044). */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <SetPasswordPage />
    </QueryClientProvider>
  );
}
