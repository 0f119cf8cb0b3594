import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, type Company } from '@app/contract';
import type { TableSearchOf } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { useCompanies } from '../api/get-companies';
import { useUpdateCompanyStatus } from '../api/update-company-status';
import { CompanyAdminsDialog } from '../components/company-admins-dialog';
import { CompanyFormDialog, type CompanyDialogState } from '../components/company-form-dialog';
import { companiesColumns } from '../components/companies-columns';
import { toggleCompanyStatusWithConfirm } from '../components/company-status';
import { IssueTokensDialog } from '../components/issue-tokens-dialog';
import type { companiesSearch } from '../search';

/**
 * Companies (/companies, admin and Group HR): list, the company modal, activate/deactivate,
 * the company admin modal, and (admin only) the issue token modal.
 */
export function CompaniesPage({ table }: { table: TableSearchOf<typeof companiesSearch> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const role = useAuthStore((state) => state.user?.type);
  const canIssueTokens = can(role, 'tokens.issue_company');
  const companies = useCompanies(table.query);
  const { mutate: changeStatus } = useUpdateCompanyStatus();
  const [dialog, setDialog] = useState<CompanyDialogState>(null);
  const [issuing, setIssuing] = useState<Company | null>(null);
  const [adminsOf, setAdminsOf] = useState<{
    company: Company;
    startWith: 'list' | 'create';
  } | null>(null);

  const columns = useMemo(
    () =>
      companiesColumns(t, {
        canIssueTokens,
        onEdit: (company) => setDialog({ mode: 'edit', company }),
        onIssueTokens: setIssuing,
        onManageAdmins: (company) => setAdminsOf({ company, startWith: 'list' }),
        onAddAdmin: (company) => setAdminsOf({ company, startWith: 'create' }),
        onOpenReport: (company) => void navigate(paths.summaryReportCompany.getHref(company.id)),
        onToggleStatus: (company) =>
          void toggleCompanyStatusWithConfirm(company, (status, callbacks) =>
            changeStatus({ id: company.id, status }, callbacks),
          ),
      }),
    [t, canIssueTokens, navigate, changeStatus],
  );

  return (
    <ListPage
      title={t('nav.companies')}
      description={t('companies.description')}
      actions={
        <Button onClick={() => setDialog({ mode: 'create' })}>
          <Plus aria-hidden />
          {t('companies.add')}
        </Button>
      }
      table={table}
      search={{ filterKey: 'search', placeholder: t('companies.search_placeholder') }}
      statuses
      label={t('companies.table_label')}
      columns={columns}
      query={companies}
      tableId="companies"
      rowHref={(company) => paths.companyDetail.getHref(company.id)}
      getRowId={(company) => String(company.id)}
    >
      <CompanyFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        onAddAdmin={(company) => {
          setDialog(null);
          setAdminsOf({ company, startWith: 'create' });
        }}
      />
      <IssueTokensDialog company={issuing} onClose={() => setIssuing(null)} />
      <CompanyAdminsDialog
        key={adminsOf ? `${adminsOf.company.id}-${adminsOf.startWith}` : 'closed'}
        company={adminsOf?.company ?? null}
        startWith={adminsOf?.startWith}
        onClose={() => setAdminsOf(null)}
      />
    </ListPage>
  );
}
