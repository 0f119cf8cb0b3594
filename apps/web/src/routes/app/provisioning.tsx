import { ProvisioningPage } from '@/features/provisioning/pages/provisioning-page';

/** /provisioning: the company admin's SCIM connection (decision 0087). */
export function Component() {
  return <ProvisioningPage />;
}
