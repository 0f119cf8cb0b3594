import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CompanyDetailPage } from '@/features/companies/pages/company-detail-page';
import { TransactionsLedger } from '@/features/transactions/components/transactions-ledger';

/** /companies/:companyId: the company with its wallet's ledger. */
export function Component() {
  const { t } = useTranslation();
  const { companyId = '' } = useParams();
  const id = Number(companyId);
  return (
    <CompanyDetailPage
      key={companyId}
      companyId={companyId}
      ledger={
        Number.isSafeInteger(id) && id > 0 ? (
          <TransactionsLedger scope="company" companyId={id} label={t('detail.ledger')} />
        ) : null
      }
    />
  );
}
