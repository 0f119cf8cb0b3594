import { LoginPage } from '@/features/auth/pages/login-page';

export function Component() {
  return <LoginPage />;
}
