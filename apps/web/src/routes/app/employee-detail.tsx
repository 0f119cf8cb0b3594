import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCompanyDetails } from '@/features/companies/api/get-company';
import { EmployeeDetailPage } from '@/features/employees/pages/employee-detail-page';
import { TransactionsLedger } from '@/features/transactions/components/transactions-ledger';
import { useAuthStore } from '@/lib/auth-store';

/** /employees/:employeeId: the employee with its wallet's ledger. */
export function Component() {
  const { t } = useTranslation();
  const { employeeId = '' } = useParams();
  const id = Number(employeeId);
  const companyId = useAuthStore((state) => state.user?.company_id);
  // The balance the reward dialog checks its total against.
  const company = useCompanyDetails(companyId ? String(companyId) : undefined);
  return (
    <EmployeeDetailPage
      key={employeeId}
      employeeId={employeeId}
      companyBalance={company.data?.token_balance}
      ledger={
        Number.isSafeInteger(id) && id > 0 ? (
          <TransactionsLedger scope="employee" employeeId={id} label={t('detail.ledger')} />
        ) : null
      }
    />
  );
}
