import { TwoFactorPage } from '@/features/auth/pages/two-factor-page';

/** /two-factor: set up or turn off two-factor sign-in (every role). */
export function Component() {
  return <TwoFactorPage />;
}
