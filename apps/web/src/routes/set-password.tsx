import { SetPasswordPage } from '@/features/auth/pages/set-password-page';

export function Component() {
  return <SetPasswordPage />;
}
