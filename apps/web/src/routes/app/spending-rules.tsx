import { SpendingRulesPage } from '@/features/companies/pages/spending-rules-page';

/** /spending-rules: a company's spending rules (DESIGN 7). */
export function Component() {
  return <SpendingRulesPage />;
}
